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

    @Test func aKeyFileOthersCanReadIsRefused() async throws {
        let work = try TemporaryDirectory("serve-mqtt-options")
        defer { work.remove() }
        let certificate = work.url.appendingPathComponent("client.pem")
        let key = work.url.appendingPathComponent("client.key")
        try Data("-----BEGIN CERTIFICATE-----\n".utf8).write(to: certificate)
        try Data("-----BEGIN PRIVATE KEY-----\nnot-to-be-shown\n".utf8).write(to: key)
        try FileManager.default.setAttributes([.posixPermissions: 0o640], ofItemAtPath: key.path)
        let refused = try await serve(
            [
                "--mqtt", "mqtts://127.0.0.1:1", "--mqtt-ca-file", "/etc/ssl/certs/ca-certificates.crt",
                "--mqtt-cert-file", certificate.path, "--mqtt-key-file", key.path,
            ], in: work)
        #expect(refused.status == 2, "\(refused)")
        #expect(refused.stderr.contains("--mqtt-key-file \(key.path) can be read by others"), "\(refused.stderr)")
        #expect(refused.stderr.contains("chmod 600 \(key.path)"), "\(refused.stderr)")
        #expect(!refused.stderr.contains("not-to-be-shown"))
    }

    @Test(arguments: [
        (["--mqtt", "http://127.0.0.1:1883"], "mqtt://host:port"),
        (["--mqtt", "mqtt://user:pw@127.0.0.1:1883"], "separate options"),
        (["--mqtt-user", "muster"], "need --mqtt URL"),
        (["--mqtt-receipt-timeout", "5"], "need --mqtt URL"),
        (
            ["--mqtt", "mqtt://127.0.0.1:1", "--mqtt-topic-prefix", "site/+/muster"],
            "--mqtt-topic-prefix site/+/muster cannot hold + or #"
        ),
        (
            ["--mqtt", "mqtt://127.0.0.1:1", "--mqtt-topic-prefix", "muster/#"],
            "--mqtt-topic-prefix muster/# cannot hold + or #"
        ),
        (
            ["--mqtt", "mqtt://127.0.0.1:1", "--mqtt-receipt-timeout", "0"],
            "--mqtt-receipt-timeout 0: expected seconds over 0"
        ),
        (
            ["--mqtt", "mqtt://127.0.0.1:1", "--mqtt-receipt-timeout=-3"],
            "--mqtt-receipt-timeout -3: expected seconds over 0"
        ),
        (
            ["--mqtt", "mqtt://127.0.0.1:1", "--mqtt-receipt-timeout", "soon"],
            "--mqtt-receipt-timeout soon: expected seconds over 0"
        ),
        (
            ["--mqtt", "mqtt://127.0.0.1:1", "--mqtt-receipt-timeout", "nan"],
            "--mqtt-receipt-timeout nan: expected seconds over 0"
        ),
        (
            [
                "--mqtt", "mqtts://127.0.0.1:1", "--mqtt-ca-file", "/etc/ssl/certs/ca-certificates.crt",
                "--mqtt-cert-file", "/etc/ssl/certs/ca-certificates.crt",
            ], "--mqtt-cert-file and --mqtt-key-file go together"
        ),
        (
            ["--mqtt", "mqtt://127.0.0.1:1", "--mqtt-cert-file", "/etc/hostname", "--mqtt-key-file", "/etc/hostname"],
            "give --mqtt-ca-file and an mqtts:// URL"
        ),
        (
            [
                "--mqtt", "mqtts://127.0.0.1:1", "--mqtt-ca-file", "/etc/ssl/certs/ca-certificates.crt",
                "--mqtt-cert-file", "/nonexistent/client.pem", "--mqtt-key-file", "/nonexistent/client.key",
            ],
            "--mqtt-cert-file /nonexistent/client.pem cannot be read"
        ),
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
