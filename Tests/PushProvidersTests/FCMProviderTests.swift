import Foundation
import MusterWire
import PushProviders
import PushTesting
import Testing

/// A local FCM with its token endpoint, a service account it knows, and a provider pointed at it.
struct FCMWorld {
    static let device = "fcm-registration-token-1"

    let server: FCMServer
    let account: ServiceAccountTestFile
    let provider: FCMProvider
    let clock: APNsTestClock

    static func start(timeout: Duration = .seconds(30)) async throws -> FCMWorld {
        let clock = APNsTestClock()
        let server = try await FCMServer.start(now: clock.function)
        let account = try await server.newServiceAccount(projectId: "muster-test")
        let provider = await FCMProvider(
            .init(serviceAccount: try ServiceAccount(json: account.json), endpoint: server.endpoint),
            options: .init(timeout: timeout), now: clock.function)
        return FCMWorld(server: server, account: account, provider: provider, clock: clock)
    }

    func stop() async throws {
        try await provider.shutdown()
        await server.stop()
    }

    /// A push of a message notice, expiring an hour after the world's clock.
    func push(body: String = "Assemble at 10") throws -> Push {
        let notice = PushNotice(kind: .message, messageId: UUID(), title: "Drill", body: body)
        return Push(
            token: Self.device, title: "Drill", body: body, notice: Array(try JSONEncoder().encode(notice)),
            collapseId: "delivery-42", expiresAt: clock.now.addingTimeInterval(3600))
    }
}

@Suite(.timeLimit(.minutes(2))) struct FCMProviderTests {
    @Test func aMessageIsSentWithATokenFromTheTokenEndpoint() async throws {
        let world = try await FCMWorld.start()
        let push = try world.push()
        let outcome = await world.provider.send(push)
        let messages = await world.server.waitForMessages(1)
        let tokenRequests = world.server.tokenRequests
        try await world.stop()
        let received = try #require(messages.first)

        #expect(received.refusal == nil)
        #expect(outcome == .delivered(providerId: received.name))
        #expect(received.name?.hasPrefix("projects/muster-test/messages/") == true)
        #expect(received.projectId == "muster-test")
        #expect(tokenRequests.count == 1)
        let claims = try #require(tokenRequests.first?.claims)
        #expect(claims.iss == world.account.clientEmail)
        #expect(claims.aud == world.server.tokenURI.absoluteString)
        #expect(claims.scope == "https://www.googleapis.com/auth/firebase.messaging")
        #expect(claims.exp == claims.iat + 3600)
        #expect(received.bearer == tokenRequests.first?.accessToken)

        let message = received.message()
        #expect(message["token"] as? String == FCMWorld.device)
        let notification = try #require(message["notification"] as? [String: Any])
        #expect(notification["title"] as? String == "Drill")
        #expect(notification["body"] as? String == "Assemble at 10")
        let data = try #require(message["data"] as? [String: Any])
        #expect(data["muster"] as? String == String(decoding: push.notice, as: UTF8.self))
        let android = try #require(message["android"] as? [String: Any])
        #expect(android["collapse_key"] as? String == "delivery-42")
        #expect(android["ttl"] as? String == "3600s")
        #expect(android["priority"] as? String == "high")
        // Tagged with the collapse id, so the message's withdrawal replaces the alert in the drawer.
        #expect((android["notification"] as? [String: Any])?["tag"] as? String == "delivery-42")
        let apns = try #require((message["apns"] as? [String: Any])?["headers"] as? [String: Any])
        #expect(apns["apns-collapse-id"] as? String == "delivery-42")
        #expect(apns["apns-expiration"] as? String == String(Int(push.expiresAt.timeIntervalSince1970)))
    }

    @Test func aSilentPushIsADataOnlyMessage() async throws {
        let world = try await FCMWorld.start()
        var push = try world.push()
        push.notice = Array(try JSONEncoder().encode(PushNotice(kind: .locationRequest)))
        push.silent = true
        let outcome = await world.provider.send(push)
        let messages = await world.server.waitForMessages(1)
        try await world.stop()
        let received = try #require(messages.first)

        #expect(outcome.isDelivered)
        let message = received.message()
        #expect(message["notification"] == nil, "no alert: \(message)")
        #expect((message["android"] as? [String: Any])?["notification"] == nil, "no tag: \(message)")
        #expect((message["data"] as? [String: Any])?["muster"] as? String == #"{"kind":"locationRequest"}"#)
        let apns = try #require(message["apns"] as? [String: Any])
        #expect((apns["headers"] as? [String: Any])?["apns-push-type"] as? String == "background")
        #expect((apns["headers"] as? [String: Any])?["apns-priority"] as? String == "5")
        #expect(((apns["payload"] as? [String: Any])?["aps"] as? [String: Any])?["content-available"] as? Int == 1)
    }

    @Test func theAccessTokenIsKeptUntilFiveMinutesBeforeItExpires() async throws {
        let world = try await FCMWorld.start()
        #expect(await world.provider.send(try world.push()).isDelivered)
        #expect(await world.provider.send(try world.push()).isDelivered)
        let afterTwo = world.server.tokenRequests.count
        world.clock.advance(by: 3600 - 300 - 1)
        #expect(await world.provider.send(try world.push()).isDelivered)
        let beforeRenewal = world.server.tokenRequests.count
        world.clock.advance(by: 2)
        #expect(await world.provider.send(try world.push()).isDelivered)
        let messages = await world.server.waitForMessages(4)
        let tokenRequests = world.server.tokenRequests
        try await world.stop()

        #expect(afterTwo == 1)
        #expect(beforeRenewal == 1)
        #expect(tokenRequests.count == 2)
        #expect(messages[0].bearer == messages[2].bearer)
        #expect(messages[3].bearer == tokenRequests[1].accessToken)
        #expect(messages[3].bearer != messages[0].bearer)
    }

    @Test func concurrentSendsWaitForOneTokenRequest() async throws {
        let world = try await FCMWorld.start()
        let push = try world.push()
        let outcomes = await withTaskGroup(of: PushOutcome.self) { group in
            for _ in 0..<6 { group.addTask { await world.provider.send(push) } }
            return await group.reduce(into: []) { $0.append($1) }
        }
        let tokenRequests = world.server.tokenRequests
        try await world.stop()

        #expect(outcomes.count == 6)
        #expect(outcomes.allSatisfy { $0.isDelivered })
        #expect(tokenRequests.count == 1)
    }

    @Test func anUnauthorizedAnswerDropsTheTokenAndTheNextSendFetchesAnother() async throws {
        let world = try await FCMWorld.start()
        world.server.inject([
            .fcm(401, status: "UNAUTHENTICATED", message: "Request had invalid authentication credentials.")
        ])
        let first = await world.provider.send(try world.push())
        let second = await world.provider.send(try world.push())
        let messages = await world.server.waitForMessages(2)
        let tokenRequests = world.server.tokenRequests
        try await world.stop()

        #expect(
            first
                == .retry(
                    status: 401, reason: "UNAUTHENTICATED: Request had invalid authentication credentials.", after: nil)
        )
        #expect(second.isDelivered)
        #expect(tokenRequests.count == 2)
        #expect(messages[1].bearer == tokenRequests[1].accessToken)
    }

    @Test(arguments: [
        (
            StandInFault.fcm(
                404, status: "NOT_FOUND", message: "Requested entity was not found.", errorCode: "UNREGISTERED"),
            PushOutcome.unregistered(status: 404, reason: "UNREGISTERED: Requested entity was not found.")
        ),
        (
            .fcm(404, status: "UNREGISTERED", message: "Requested entity was not found."),
            .unregistered(status: 404, reason: "UNREGISTERED: Requested entity was not found.")
        ),
        (
            .fcm(
                400, status: "INVALID_ARGUMENT",
                message: "The registration token is not a valid FCM registration token", errorCode: "INVALID_ARGUMENT"),
            .unregistered(
                status: 400, reason: "INVALID_ARGUMENT: The registration token is not a valid FCM registration token")
        ),
        (
            .fcm(400, status: "INVALID_ARGUMENT", message: "Invalid value at 'message.data'"),
            .rejected(status: 400, reason: "INVALID_ARGUMENT: Invalid value at 'message.data'")
        ),
        (
            .fcm(
                429, status: "RESOURCE_EXHAUSTED", message: "Quota exceeded", errorCode: "QUOTA_EXCEEDED",
                retryAfter: "7"),
            .retry(status: 429, reason: "QUOTA_EXCEEDED: Quota exceeded", after: .seconds(7))
        ),
        (
            .fcm(503, status: "UNAVAILABLE", message: "The service is unavailable", errorCode: "UNAVAILABLE"),
            .retry(status: 503, reason: "UNAVAILABLE: The service is unavailable", after: nil)
        ),
        (
            .fcm(500, status: "INTERNAL", message: "Internal error", errorCode: "INTERNAL"),
            .retry(status: 500, reason: "INTERNAL: Internal error", after: nil)
        ),
        (
            .fcm(403, status: "PERMISSION_DENIED", message: "SenderId mismatch", errorCode: "SENDER_ID_MISMATCH"),
            .rejected(status: 403, reason: "SENDER_ID_MISMATCH: SenderId mismatch")
        ),
    ])
    func anAnswerIsClassified(fault: StandInFault, expected: PushOutcome) async throws {
        let world = try await FCMWorld.start()
        world.server.inject([fault])
        let outcome = await world.provider.send(try world.push())
        try await world.stop()
        #expect(outcome == expected)
    }

    @Test func aServerThatNeverAnswersTimesOutAndIsRetried() async throws {
        let world = try await FCMWorld.start(timeout: .seconds(3))
        // A first push fetches the access token (kept for its lifetime), so only the unanswered message can run out
        // of time. On a machine loaded by a full run the exchange itself can outrun the limit: then it is tried again.
        var first = await world.provider.send(try world.push())
        for _ in 0..<10 where !first.isDelivered { first = await world.provider.send(try world.push()) }
        #expect(first.isDelivered, "\(first)")
        world.server.inject([.neverAnswer])
        let outcome = await world.provider.send(try world.push())
        try await world.stop()
        #expect(outcome == .retry(status: nil, reason: "timeout: the provider did not answer in time", after: nil))
    }

    @Test(arguments: [
        (StandInFault.answer(status: 503, body: #"{"error":"unavailable"}"#), "token endpoint: answered HTTP 503"),
        (.answer(status: 200, body: "not json"), "token endpoint: answered without access_token and expires_in"),
    ])
    func aFailingTokenEndpointIsRetriedWithoutCredentialText(fault: StandInFault, reason: String) async throws {
        let world = try await FCMWorld.start()
        world.server.injectTokenFaults([fault])
        let first = await world.provider.send(try world.push())
        let second = await world.provider.send(try world.push())
        let messages = world.server.messages
        try await world.stop()

        guard case .retry(nil, let text, nil) = first else {
            Issue.record("expected a retry without status, got \(first)")
            return
        }
        #expect(text.hasPrefix(reason))
        #expect(!text.contains("PRIVATE KEY"))
        let keyLines = world.account.privateKeyPEM.split(separator: "\n").dropFirst().dropLast()
        #expect(keyLines.allSatisfy { !text.contains($0) })
        #expect(second.isDelivered)
        #expect(messages.count == 1)
    }

    @Test func anAccountTheTokenEndpointRefusesIsRetried() async throws {
        let world = try await FCMWorld.start()
        // Same token endpoint, but a key it was never told of.
        let stranger = try await ServiceAccountTestFile.generate(
            projectId: "muster-test", tokenURI: world.server.tokenURI)
        let provider = await FCMProvider(
            .init(serviceAccount: try ServiceAccount(json: stranger.json), endpoint: world.server.endpoint),
            now: world.clock.function)
        let outcome = await provider.send(try world.push())
        try await provider.shutdown()
        try await world.stop()

        guard case .retry(nil, let text, nil) = outcome else {
            Issue.record("expected a retry without status, got \(outcome)")
            return
        }
        #expect(text == "token endpoint: answered HTTP 400 (invalid_grant)")
    }

    @Test func anUnreachableTokenEndpointIsRetried() async throws {
        let world = try await FCMWorld.start()
        let account = world.account
        try await world.stop()
        let provider = await FCMProvider(
            .init(serviceAccount: try ServiceAccount(json: account.json)), options: .init(timeout: .seconds(3)))
        let outcome = await provider.send(try world.push())
        try await provider.shutdown()

        guard case .retry(nil, let text, nil) = outcome else {
            Issue.record("expected a retry without status, got \(outcome)")
            return
        }
        // The client tries to connect again until the deadline, then gives the refusal or the deadline.
        #expect(text.hasPrefix("token endpoint: connection") || text.hasPrefix("token endpoint: timeout"), "\(text)")
    }

    @Test func fitsCountsDataAndNotification() async throws {
        let world = try await FCMWorld.start()
        let small = try world.push()
        let large = try world.push(body: String(repeating: "x", count: 2100))
        let fits = (world.provider.fits(small), world.provider.fits(large))
        try await world.stop()
        #expect(fits.0)
        #expect(!fits.1)
    }
}

extension PushOutcome {
    fileprivate var isDelivered: Bool {
        if case .delivered = self { return true }
        return false
    }
}
