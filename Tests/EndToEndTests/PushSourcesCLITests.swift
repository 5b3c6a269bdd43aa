import EventLogTesting
import Foundation
import PushTesting
import Testing

/// `muster push-sources` and `muster deliveries` on a data directory: what they refuse, and what an empty
/// namespace lists.
@Suite struct PushSourcesCLITests {
    /// A data directory with user joe, who has a web device.
    static func dataDirectory(_ work: TemporaryDirectory) async throws -> [String] {
        let data = ["--data", work.url.appendingPathComponent("data").path]
        let joe = try await MusterProcess.run(["users", "add", "joe"] + data)
        #expect(joe.status == 0, "\(joe)")
        let device = try await MusterProcess.run(
            [
                "devices", "register", "--user", "joe", "--device-id", "browser", "--device-name", "Firefox",
                "--platform", "web", "--token", WebPushTestSubscription.json(),
            ] + data)
        #expect(device.status == 0, "\(device)")
        return data
    }

    @Test func aBadEndpointIsRefusedNamingItAndNothingIsStored() async throws {
        let work = try TemporaryDirectory("push-sources-cli")
        defer { work.remove() }
        let data = try await Self.dataDirectory(work)
        let refused = try await MusterProcess.run(
            [
                "push-sources", "add", "webpush", "browsers", "--subject", "mailto:ops@example.org", "--endpoint",
                "ftp:x",
            ]
                + data)
        #expect(refused.status == 2, "\(refused)")
        #expect(refused.stderr.contains("--endpoint"), "\(refused.stderr)")
        #expect(refused.stderr.split(separator: "\n").count == 1)
        let events = try await MusterProcess.run(["events"] + data)
        #expect(events.status == 0, "\(events)")
        #expect(!events.stdout.contains("PushSourceConfigured"), "\(events.stdout)")
        #expect(events.stdout.contains("UserCreated"), "the events are listed: \(events.stdout)")
    }

    @Test func aMissingKeyFileIsRefusedNamingTheOption() async throws {
        let work = try TemporaryDirectory("push-sources-cli")
        defer { work.remove() }
        let data = try await Self.dataDirectory(work)
        let missing = work.url.appendingPathComponent("AuthKey_NOPE.p8").path
        let refused = try await MusterProcess.run(
            [
                "push-sources", "add", "apns", "ios", "--key-file", missing, "--key-id", "ABCDE12345", "--team-id",
                "TEAM123456", "--topic", "org.example.app",
            ] + data)
        #expect(refused.status == 2, "\(refused)")
        #expect(refused.stderr.contains("--key-file"), "\(refused.stderr)")
        #expect(refused.stderr.contains("no such file"), "\(refused.stderr)")
    }

    @Test func aKeyFileAndACertificateTogetherAreRefused() async throws {
        let work = try TemporaryDirectory("push-sources-cli")
        defer { work.remove() }
        let data = try await Self.dataDirectory(work)
        let key = work.url.appendingPathComponent("AuthKey.p8")
        try Data("-----BEGIN PRIVATE KEY-----\n-----END PRIVATE KEY-----\n".utf8).write(to: key)
        let both = try await MusterProcess.run(
            [
                "push-sources", "add", "apns", "ios", "--key-file", key.path, "--certificate", key.path, "--topic",
                "org.example.app",
            ] + data)
        #expect(both.status == 2, "\(both)")
        #expect(both.stderr.contains("--key-file") && both.stderr.contains("--certificate"), "\(both.stderr)")
        let neither = try await MusterProcess.run(
            ["push-sources", "add", "apns", "ios", "--topic", "org.example.app"] + data)
        #expect(neither.status == 2, "\(neither)")
        #expect(neither.stderr.contains("--key-file") && neither.stderr.contains("--certificate"), "\(neither.stderr)")
    }

    @Test func aWebDeviceWhoseSubscriptionCannotBeDeliveredToIsRefusedNamingTheMember() async throws {
        let work = try TemporaryDirectory("push-sources-cli")
        defer { work.remove() }
        let data = try await Self.dataDirectory(work)
        let register = [
            "devices", "register", "--user", "joe", "--device-id", "laptop", "--device-name", "Chromium", "--platform",
            "web",
        ]
        let plain = WebPushTestSubscription.json(endpoint: "https://push.example.org/2")
            .replacingOccurrences(of: "https://push.example.org", with: "http://push.example.org")
        let refusals: [(token: [String], names: String)] = [
            ([], "token"), (["--token", "not json"], "token"), (["--token", plain], "token.endpoint"),
        ]
        for refusal in refusals {
            let refused = try await MusterProcess.run(register + refusal.token + data)
            #expect(refused.status == 2, "\(refused)")
            #expect(refused.stderr.contains(refusal.names + ":"), "\(refused.stderr)")
        }
        let devices = try await MusterProcess.run(["devices", "list", "--user", "joe", "--json"] + data)
        #expect(!devices.stdout.contains("laptop"), "nothing was stored: \(devices.stdout)")
        #expect(devices.stdout.contains("browser"))
    }

    @Test(arguments: [
        (["--key-file", "AuthKey.p8", "--key-id", "ABCDE12345", "--team-id", "TEAM123456"], "--key-file"),
        (["--certificate", "push.p12", "--password-stdin"], "--certificate"),
    ])
    func aMalformedCredentialFileIsRefusedNamingItsOptionAndNothingIsStored(
        options: [String], named: String
    ) async throws {
        let work = try TemporaryDirectory("push-sources-cli")
        defer { work.remove() }
        let data = try await Self.dataDirectory(work)
        for name in ["AuthKey.p8", "push.p12"] {
            try Data("-----BEGIN PRIVATE KEY-----\nnot a key\n-----END PRIVATE KEY-----\n".utf8)
                .write(to: work.url.appendingPathComponent(name))
        }
        let files = options.map { $0.contains(".") ? work.url.appendingPathComponent($0).path : $0 }
        let refused = try await MusterProcess.run(
            ["push-sources", "add", "apns", "ios", "--topic", "org.example.app"] + files + data, stdin: "pw\n")
        #expect(refused.status == 2, "\(refused)")
        #expect(refused.stderr.hasPrefix("muster: \(named): "), "\(refused.stderr)")
        #expect(refused.stderr.split(separator: "\n").count == 1)
        let listed = try await MusterProcess.run(["push-sources", "list", "--json"] + data)
        #expect(listed.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "[]")
        let secrets = work.url.appendingPathComponent("data/secrets").path
        let kept = (try? FileManager.default.contentsOfDirectory(atPath: secrets)) ?? []
        #expect(kept.isEmpty, "no secret was kept: \(kept)")
    }

    @Test func anUnknownKindIsRefusedNamingTheKinds() async throws {
        let work = try TemporaryDirectory("push-sources-cli")
        defer { work.remove() }
        let data = try await Self.dataDirectory(work)
        let refused = try await MusterProcess.run(["push-sources", "add", "pigeon", "coop", "--subject", "x"] + data)
        #expect(refused.status == 2, "\(refused)")
        #expect(
            refused.stderr == "muster: push-sources add pigeon: expected one of apns, fcm, webpush; "
                + "see muster push-sources add --help\n", "\(refused.stderr)")
        let listed = try await MusterProcess.run(["push-sources", "list", "--json"] + data)
        #expect(listed.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "[]")
    }

    @Test func anEmptyNamespaceListsNoSources() async throws {
        let work = try TemporaryDirectory("push-sources-cli")
        defer { work.remove() }
        let data = try await Self.dataDirectory(work)
        let table = try await MusterProcess.run(["push-sources", "list"] + data)
        #expect(table.status == 0, "\(table)")
        #expect(table.lines.count == 1, "only the header: \(table.stdout)")
        #expect(table.lines.first?.hasPrefix("NAME") == true, "\(table.stdout)")
        let json = try await MusterProcess.run(["push-sources", "list", "--json"] + data)
        #expect(json.status == 0, "\(json)")
        #expect(json.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "[]")
    }

    @Test func removingAnUnknownSourceSaysHowToList() async throws {
        let work = try TemporaryDirectory("push-sources-cli")
        defer { work.remove() }
        let data = try await Self.dataDirectory(work)
        let unknown = try await MusterProcess.run(["push-sources", "remove", "nope"] + data)
        #expect(unknown.status == 2, "\(unknown)")
        #expect(unknown.stderr.contains("nope"), "\(unknown.stderr)")
        #expect(unknown.stderr.contains("muster push-sources list"), "\(unknown.stderr)")
    }
}

/// `muster deliveries` on a data directory.
@Suite struct DeliveriesCLITests {
    @Test func aMessageToADeviceWithoutASourceHasNoDelivery() async throws {
        let work = try TemporaryDirectory("deliveries-cli")
        defer { work.remove() }
        let data = try await PushSourcesCLITests.dataDirectory(work)
        let sent = try await MusterProcess.run(
            ["send", "--to", "joe", "--title", "T", "--body", "B", NotificationsCLITests.payload] + data)
        #expect(sent.status == 0, "\(sent)")
        let listed = try await MusterProcess.run(["deliveries", "--json"] + data)
        #expect(listed.status == 0, "\(listed)")
        #expect(listed.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "[]", "\(listed.stdout)")
        let table = try await MusterProcess.run(["deliveries", "--user", "joe", "--status", "pending"] + data)
        #expect(table.status == 0, "\(table)")
        #expect(table.lines == [table.lines.first ?? ""] && table.stdout.hasPrefix("MESSAGE"), "\(table.stdout)")
    }

    @Test func aBadFilterIsRefusedNamingIt() async throws {
        let work = try TemporaryDirectory("deliveries-cli")
        defer { work.remove() }
        let data = try await PushSourcesCLITests.dataDirectory(work)
        let message = try await MusterProcess.run(["deliveries", "--message", "42"] + data)
        #expect(message.status == 2, "\(message)")
        #expect(message.stderr.contains("--message"), "\(message.stderr)")
        let status = try await MusterProcess.run(["deliveries", "--status", "lost"] + data)
        #expect(status.status == 2, "\(status)")
        #expect(status.stderr.contains("status"), "\(status.stderr)")
    }
}
