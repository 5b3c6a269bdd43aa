import EventLogTesting
import Foundation
import Testing

/// `muster serve --mqtt …` refuses what it cannot use before it starts, naming the option; the password never
/// shows.
@Suite struct ServeMQTTOptionsTests {
    func serve(_ arguments: [String], in work: TemporaryDirectory) async throws -> MusterProcess.Outcome {
        try await MusterProcess.run(
            ["serve", "--port", "0", "--data", work.url.appendingPathComponent("data").path] + arguments)
    }

    @Test func aPasswordFileOthersCanReadIsRefused() async throws {
        let work = try TemporaryDirectory("serve-mqtt-options")
        defer { work.remove() }
        let file = work.url.appendingPathComponent("password")
        try Data("not-to-be-shown\n".utf8).write(to: file)
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: file.path)
        let refused = try await serve(
            ["--mqtt", "mqtt://127.0.0.1:1", "--mqtt-user", "muster", "--mqtt-password-file", file.path], in: work)
        #expect(refused.status == 2, "\(refused)")
        #expect(refused.stderr.contains("--mqtt-password-file"), "\(refused.stderr)")
        #expect(refused.stderr.contains("chmod 600"), "\(refused.stderr)")
        #expect(!refused.stderr.contains("not-to-be-shown"))
    }

    @Test(arguments: [
        (["--mqtt", "http://127.0.0.1:1883"], "mqtt://host:port"),
        (["--mqtt", "mqtt://user:pw@127.0.0.1:1883"], "separate options"),
        (["--mqtt-user", "muster"], "need --mqtt URL"),
    ])
    func optionsItCannotUseAreRefusedByName(arguments: [String], expected: String) async throws {
        let work = try TemporaryDirectory("serve-mqtt-options")
        defer { work.remove() }
        let refused = try await serve(arguments, in: work)
        #expect(refused.status == 2, "\(refused)")
        #expect(refused.stderr.contains(expected), "\(refused.stderr)")
        #expect(!refused.stderr.contains("pw@"), "a password in the URL is not repeated")
    }
}
