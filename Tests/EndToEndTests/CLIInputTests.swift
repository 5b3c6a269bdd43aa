import EventLogTesting
import Foundation
import Testing

/// Input the command line refuses with one clear line and exit 2, or takes once, storing nothing it refused.
@Suite struct CLIInputTests {
    @Test func aProjectionNamedTwiceIsRebuiltOnce() async throws {
        let work = try TemporaryDirectory("rebuild-twice")
        defer { work.remove() }
        let data = ["--data", work.url.appendingPathComponent("data").path]
        let joe = try await MusterProcess.run(["users", "add", "joe"] + data)
        try #require(joe.status == 0, "\(joe)")
        let rebuilt = try await MusterProcess.run(["rebuild", "inbox", "inbox", "--json"] + data)
        #expect(rebuilt.status == 0, "\(rebuilt)")
        #expect(try rebuilt.json()["rebuilt"] as? [String] == ["inbox"], "\(rebuilt)")
    }
}
