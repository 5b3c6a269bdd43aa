import EventLogTesting
import Foundation
import Testing

/// A user (or device) that does not exist is a typo: refused naming it, as `quota` does, never answered for nobody
/// or recorded.
@Suite struct UnknownUserCLITests {
    @Test func lookupsOfAUserThatDoesNotExistAreRefused() async throws {
        let work = try TemporaryDirectory("unknown-user")
        defer { work.remove() }
        let data = ["--data", work.url.appendingPathComponent("data").path]
        let joe = try await MusterProcess.run(["users", "add", "joe"] + data)
        try #require(joe.status == 0, "\(joe)")

        for command in [
            ["inbox", "jo"], ["notices", "list", "--user", "jo", "--device-id", "x"], ["deliveries", "--user", "jo"],
            ["quota", "jo"], ["devices", "trace-logging", "--user", "jo", "--device-id", "x"],
        ] {
            let refused = try await MusterProcess.run(command + data)
            #expect(refused.status == 2, "\(command): \(refused)")
            #expect(refused.stderr.hasPrefix("muster: no user named jo in namespace default"), "\(command): \(refused)")
        }
        for command in [
            ["inbox", "joe", "--json"], ["notices", "list", "--user", "joe", "--device-id", "x", "--json"],
            ["deliveries", "--user", "joe", "--json"],
        ] {
            let answered = try await MusterProcess.run(command + data)
            #expect(answered.status == 0, "\(command): \(answered)")
            #expect(answered.stdout == "[]\n", "\(command): \(answered)")
        }
    }

    @Test func traceLoggingOfAnUnknownUserRecordsNothing() async throws {
        let work = try TemporaryDirectory("trace-unknown")
        defer { work.remove() }
        let data = ["--data", work.url.appendingPathComponent("data").path]
        let joe = try await MusterProcess.run(["users", "add", "joe"] + data)
        try #require(joe.status == 0, "\(joe)")
        let before = try await MusterProcess.run(["events", "--json"] + data).stdout

        let nobody = try await MusterProcess.run(
            ["devices", "trace-logging", "--user", "nobody", "--device-id", "ghost", "on"] + data)
        #expect(nobody.status == 2, "\(nobody)")
        #expect(nobody.stderr.hasPrefix("muster: no user named nobody in namespace default"), "\(nobody)")
        #expect(try await MusterProcess.run(["events", "--json"] + data).stdout == before)
        // A device of a user that exists may choose before it ever reports, as over HTTP.
        let phone = try await MusterProcess.run(
            ["devices", "trace-logging", "--user", "joe", "--device-id", "phone", "on"] + data)
        #expect(phone.status == 0, "\(phone)")
        #expect(try phone.json()["device"] as? Bool == true, "\(phone)")
    }
}
