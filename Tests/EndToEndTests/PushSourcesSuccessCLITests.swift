import EventLogTesting
import Foundation
import Testing

/// `muster push-sources add webpush` once the providers are wired: the server makes the VAPID key pair, the
/// source is listed with its public key and fingerprint, and removed again. These need `PushSourceSetup.prepare`
/// to know Web Push sources.
@Suite struct PushSourcesSuccessCLITests {
    @Test func aWebPushSourceIsAddedListedAndRemoved() async throws {
        let work = try TemporaryDirectory("push-sources-success")
        defer { work.remove() }
        let data = ["--data", work.url.appendingPathComponent("data").path]
        let added = try await MusterProcess.run(
            ["push-sources", "add", "webpush", "browsers", "--subject", "mailto:ops@example.org"] + data)
        #expect(added.status == 0, "\(added)")
        let source = try added.json()
        #expect(source["name"] as? String == "browsers")
        #expect(source["kind"] as? String == "webpush")
        let details = try #require(source["details"] as? [String: Any])
        let publicKey = try #require(details["publicKey"] as? String)
        // An uncompressed P-256 point, base64url without padding: 65 bytes, 87 characters.
        #expect(publicKey.count == 87, "\(publicKey)")
        #expect(!publicKey.contains("=") && !publicKey.contains("+") && !publicKey.contains("/"))
        let fingerprint = try #require(source["fingerprint"] as? String)
        #expect(fingerprint.count == 64)

        let table = try await MusterProcess.run(["push-sources", "list"] + data)
        #expect(table.status == 0, "\(table)")
        #expect(table.lines.count == 2, "\(table.stdout)")
        #expect(table.stdout.contains("browsers") && table.stdout.contains("webpush"))
        #expect(table.stdout.contains(String(fingerprint.prefix(12)) + "…"))
        #expect(!table.stdout.contains(fingerprint), "the table shortens the fingerprint")

        let events = try await MusterProcess.run(["events"] + data)
        #expect(events.stdout.contains("PushSourceConfigured"), "\(events.stdout)")

        let removed = try await MusterProcess.run(["push-sources", "remove", "browsers"] + data)
        #expect(removed.status == 0, "\(removed)")
        let empty = try await MusterProcess.run(["push-sources", "list", "--json"] + data)
        #expect(empty.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "[]")
    }

    @Test func aTestPushToAUserWithoutADeviceTheSourceReachesIsRefused() async throws {
        let work = try TemporaryDirectory("push-sources-success")
        defer { work.remove() }
        let data = ["--data", work.url.appendingPathComponent("data").path]
        #expect(try await MusterProcess.run(["users", "add", "joe"] + data).status == 0)
        let added = try await MusterProcess.run(
            ["push-sources", "add", "webpush", "browsers", "--subject", "mailto:ops@example.org"] + data)
        #expect(added.status == 0, "\(added)")
        let test = try await MusterProcess.run(["push-sources", "test", "browsers", "--user", "joe"] + data)
        #expect(test.status == 2, "\(test)")
        #expect(test.stderr.contains("no web device"), "\(test.stderr)")
    }
}
