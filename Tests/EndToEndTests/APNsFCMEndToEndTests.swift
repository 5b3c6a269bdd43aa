import EventLogTesting
import Foundation
import PushTesting
import Testing

/// APNs and FCM sources configured with the CLI against a running `muster serve`, as an administrator would:
/// the secrets reach the secret store and never the log, and a message sent to a user reaches the local APNs
/// (HTTP/2 over TLS, trusted through `--push-ca-file`) or the local FCM, and is listed as delivered.
@Suite struct APNsFCMEndToEndTests {
    static let topic = "org.example.muster"
    static let keyId = "ABCDE12345"
    static let teamId = "TEAM123456"
    static let deviceToken = String(repeating: "ab", count: 32)

    /// A server trusting `certificatePEM` for its pushes, ada logged in, and joe with one device of `platform`.
    struct World {
        let server: ServerProcess
        let work: TemporaryDirectory
        let ada: Terminal

        static func start(
            certificatePEM: String?, platform: String, token: String = APNsFCMEndToEndTests.deviceToken
        ) async throws -> World {
            let work = try TemporaryDirectory("apns-fcm-e2e")
            var extra: [String] = []
            if let certificatePEM {
                let ca = work.url.appendingPathComponent("push-ca.pem")
                try Data(certificatePEM.utf8).write(to: ca)
                extra = ["--push-ca-file", ca.path]
            }
            let server = try await ServerProcess(extraArguments: extra)
            let ada = Terminal(work.url.appendingPathComponent("ada.json"))
            try await ada.login(server.base, "ada", password: "secret-ada")
            let joeAdded = try await ada.run(["users", "add", "joe", "--password-stdin"], stdin: "secret-joe\n")
            try #require(joeAdded.status == 0, "\(joeAdded)")
            let joe = Terminal(work.url.appendingPathComponent("joe.json"))
            try await joe.login(server.base, "joe", password: "secret-joe")
            let device = try await joe.run(
                [
                    "devices", "register", "--device-id", "phone", "--device-name", "Phone", "--platform", platform,
                    "--token", token,
                ])
            try #require(device.status == 0, "\(device)")
            return World(server: server, work: work, ada: ada)
        }

        func file(_ name: String, _ contents: Data) throws -> String {
            let url = work.url.appendingPathComponent(name)
            try contents.write(to: url)
            return url.path
        }

        /// Sends a form to joe and waits until its delivery is listed as delivered; returns the message id.
        func sendToJoeAndWaitForDelivery() async throws -> String {
            let sent = try await ada.run(
                ["send", "--to", "joe", "--title", "Drill", "--body", "Where are you?", NotificationsCLITests.payload])
            try #require(sent.status == 0, "\(sent)")
            let id = try #require((try sent.json()["messageIds"] as? [String])?.first)
            try await waitForDelivery(of: id)
            return id
        }

        /// Waits until the one delivery of message (or location request) `id` is listed as delivered.
        func waitForDelivery(of id: String) async throws {
            let deadline = ContinuousClock.now + .seconds(30)
            while ContinuousClock.now < deadline {
                let listed = try await ada.run(["deliveries", "--message", id, "--json"])
                try #require(listed.status == 0, "\(listed)")
                let rows = try JSONSerialization.jsonObject(with: Data(listed.stdout.utf8)) as? [[String: Any]] ?? []
                if rows.first?["status"] as? String == "delivered" { return }
                try #require(rows.first?["status"] as? String == "pending", "\(listed.stdout)")
                try await Task.sleep(for: .milliseconds(100))
            }
            throw MusterProcess.Unexpected("message \(id) was not delivered in 30 s")
        }

        /// Every event of the server's log as the CLI prints it next to the server.
        func events() async throws -> String {
            let events = try await server.run(["events", "--json"] + server.data)
            try #require(events.status == 0, "\(events)")
            return events.stdout
        }

        func stop() async {
            _ = await server.stop()
            work.remove()
        }
    }

    @Test func anAPNsTokenSourceDeliversAMessageOverHTTP2AndKeepsItsKeyOutOfTheLog() async throws {
        let key = APNsTestKey()
        let apns = try await APNsServer.start(
            topic: Self.topic,
            authentication: .token(publicKeyPEM: key.publicKeyPEM, keyId: Self.keyId, teamId: Self.teamId))
        let world = try await World.start(certificatePEM: apns.certificate.certificatePEM, platform: "apns")

        let added = try await world.ada.run(
            [
                "push-sources", "add", "apns", "ios", "--key-file", try world.file("AuthKey.p8", Data(key.pem.utf8)),
                "--key-id", Self.keyId, "--team-id", Self.teamId, "--topic", Self.topic, "--sandbox", "--endpoint",
                apns.endpoint.absoluteString,
            ])
        #expect(added.status == 0, "\(added)")
        let details = try #require(try added.json()["details"] as? [String: Any])
        #expect(details["authentication"] as? String == "token")
        #expect(details["keyId"] as? String == Self.keyId)
        #expect(details["sandbox"] as? String == "true")

        let tested = try await world.ada.run(["push-sources", "test", "ios", "--user", "joe", "--json"])
        #expect(tested.status == 0, "\(tested)")
        #expect(tested.stdout.contains(#""outcome":"delivered""#), "\(tested.stdout)")

        let id = try await world.sendToJoeAndWaitForDelivery()
        let pushes = await apns.waitForPushes(2)
        #expect(pushes.count == 2)
        let push = try #require(pushes.last)
        #expect(push.refusal == nil, "\(push.refusal ?? "")")
        #expect(push.token == Self.deviceToken)
        #expect(push.headers["apns-topic"] == Self.topic)
        #expect(push.httpVersion.contains("2"), "\(push.httpVersion)")
        #expect(String(decoding: push.body, as: UTF8.self).contains(id), "the push carries the message")

        // A location request wakes the app silently: a background push asking for the location.
        let asked = try await world.ada.run(["request-location", "--user", "joe", "--reason", "roll call"])
        #expect(asked.status == 0, "\(asked)")
        #expect(try asked.json()["devices"] as? [String] == ["phone"])
        let requestId = try #require(try asked.json()["requestId"] as? String)
        try await world.waitForDelivery(of: requestId)
        let request = try #require(await apns.waitForPushes(3).last)
        #expect(request.refusal == nil, "\(request.refusal ?? "")")
        #expect(request.headers["apns-push-type"] == "background")
        #expect((request.json()["muster"] as? [String: Any])?["kind"] as? String == "locationRequest")

        let events = try await world.events()
        #expect(events.contains("PushSourceConfigured") && events.contains("PushDelivered"))
        #expect(events.contains("LocationRequested") && events.contains("roll call"))
        let keyBody = key.pem.split(separator: "\n").dropFirst().first.map(String.init) ?? key.pem
        #expect(!events.contains(keyBody), "the .p8 key is not in the log")
        await world.stop()
        await apns.stop()
    }

    @Test func anAPNsCertificateSourceNeedsTheRightPasswordAndThenDelivers() async throws {
        let client = try TestCertificate.selfSigned(commonName: "Muster push client")
        let apns = try await APNsServer.start(
            topic: Self.topic, authentication: .certificate(trusting: [try client.nioCertificate()]))
        let world = try await World.start(certificatePEM: apns.certificate.certificatePEM, platform: "apns")
        let p12 = try world.file("push.p12", Data(try client.pkcs12(password: "right")))
        let add = [
            "push-sources", "add", "apns", "ios", "--certificate", p12, "--password-stdin", "--topic", Self.topic,
            "--endpoint", apns.endpoint.absoluteString,
        ]

        let wrong = try await world.ada.run(add, stdin: "wrong\n")
        #expect(wrong.status == 2, "\(wrong)")
        #expect(wrong.stderr.contains("password"), "\(wrong.stderr)")
        #expect(try !(await world.events()).contains("PushSourceConfigured"), "nothing is stored")

        let added = try await world.ada.run(add, stdin: "right\n")
        #expect(added.status == 0, "\(added)")
        let details = try #require(try added.json()["details"] as? [String: Any])
        #expect(details["authentication"] as? String == "certificate")
        #expect(details["certificateExpires"] is String)
        #expect(!added.stdout.contains("right"), "the password is not echoed")

        _ = try await world.sendToJoeAndWaitForDelivery()
        let push = try #require(await apns.waitForPushes(1).first)
        #expect(push.presentedClientCertificate)
        #expect(push.refusal == nil, "\(push.refusal ?? "")")
        await world.stop()
        await apns.stop()
    }

    @Test func anFCMSourceDeliversAMessageWithATokenFromTheServiceAccount() async throws {
        let fcm = try await FCMServer.start()
        let account = try await fcm.newServiceAccount(projectId: "muster-e2e")
        let world = try await World.start(certificatePEM: nil, platform: "fcm", token: "fcm-registration-token")

        let bad = try await world.ada.run(
            ["push-sources", "add", "fcm", "android", "--service-account", try world.file("bad.json", Data("{}".utf8))])
        #expect(bad.status == 2, "\(bad)")
        #expect(bad.stderr.contains("serviceAccount") || bad.stderr.contains("--service-account"), "\(bad.stderr)")

        let added = try await world.ada.run(
            [
                "push-sources", "add", "fcm", "android", "--service-account",
                try world.file("account.json", account.json), "--endpoint", fcm.endpoint.absoluteString,
            ])
        #expect(added.status == 0, "\(added)")
        let details = try #require(try added.json()["details"] as? [String: Any])
        #expect(details["projectId"] as? String == "muster-e2e")
        #expect(details["clientEmail"] as? String == account.clientEmail)

        let id = try await world.sendToJoeAndWaitForDelivery()
        let message = try #require(await fcm.waitForMessages(1).first)
        #expect(message.refusal == nil, "\(message.refusal ?? "")")
        #expect(message.projectId == "muster-e2e")
        #expect(message.message()["token"] as? String == "fcm-registration-token")
        #expect(String(decoding: message.body, as: UTF8.self).contains(id))
        #expect(fcm.tokenRequests.count == 1, "the access token is kept for the next sends")

        let events = try await world.events()
        #expect(!events.contains(account.privateKeyPEM.split(separator: "\n")[1]), "the key is not in the log")
        await world.stop()
        await fcm.stop()
    }
}
