import Foundation
import MusterWire
import PushProviders
import PushTesting
import Testing

/// A local APNs and a provider pointed at it.
struct APNsWorld {
    static let topic = "com.example.muster"
    static let keyId = "ABC123DEFG"
    static let teamId = "TEAM123456"
    static let device = String(repeating: "a1b2", count: 16)

    let server: APNsServer
    let provider: APNsProvider
    let clock: APNsTestClock

    /// Token authentication with a fresh `.p8` key.
    static func token(timeout: Duration = .seconds(30)) async throws -> APNsWorld {
        let clock = APNsTestClock()
        let key = APNsTestKey()
        let server = try await APNsServer.start(
            topic: topic, authentication: .token(publicKeyPEM: key.publicKeyPEM, keyId: keyId, teamId: teamId),
            now: clock.function)
        let configuration = try APNsConfiguration(
            authentication: .token(try APNsSigningKey(pem: key.pem), keyId: keyId, teamId: teamId), topic: topic,
            endpoint: server.endpoint)
        let provider = await APNsProvider(
            configuration, options: .init(additionalTrustRoots: server.trustRoots, timeout: timeout),
            now: clock.function)
        return APNsWorld(server: server, provider: provider, clock: clock)
    }

    func stop() async throws {
        try await provider.shutdown()
        await server.stop()
    }

    /// A push of a message notice to `device`.
    static func push(token: String = device, notice: PushNotice? = nil, expiresAt: Date? = nil) throws -> Push {
        let notice = notice ?? PushNotice(kind: .message, messageId: UUID(), title: "Drill", body: "Assemble at 10")
        return Push(
            token: token, title: "Drill", body: "Assemble at 10", notice: Array(try JSONEncoder().encode(notice)),
            collapseId: "delivery-42", expiresAt: expiresAt ?? Date().addingTimeInterval(3600))
    }
}

@Suite(.timeLimit(.minutes(2))) struct APNsProviderTests {
    @Test func tokenAuthenticationDeliversOverHTTP2() async throws {
        let world = try await APNsWorld.token()
        let expiresAt = Date(timeIntervalSince1970: 1_900_000_000)
        let push = try APNsWorld.push(expiresAt: expiresAt)
        let outcome = await world.provider.send(push)
        let pushes = await world.server.waitForPushes(1)
        try await world.stop()
        let received = try #require(pushes.first)

        #expect(received.refusal == nil)
        #expect(outcome == .delivered(providerId: received.apnsId))
        #expect(received.apnsId != nil)
        #expect(received.httpVersion == "2")
        #expect(received.token == APNsWorld.device)
        #expect(received.headers["apns-topic"] == APNsWorld.topic)
        #expect(received.headers["apns-push-type"] == "alert")
        #expect(received.headers["apns-priority"] == "10")
        #expect(received.headers["apns-expiration"] == "1900000000")
        #expect(received.headers["apns-collapse-id"] == "delivery-42")
        #expect(received.headers["authorization"]?.hasPrefix("bearer ") == true)
        #expect(received.claims?.iss == APNsWorld.teamId)
        #expect(received.claims?.iat == Int(world.clock.now.timeIntervalSince1970))

        let body = received.json()
        let aps = try #require(body["aps"] as? [String: Any])
        let alert = try #require(aps["alert"] as? [String: Any])
        #expect(alert["title"] as? String == "Drill")
        #expect(alert["body"] as? String == "Assemble at 10")
        #expect(aps["sound"] as? String == "default")
        #expect(aps["mutable-content"] as? Int == 1)
        let muster = try #require(body["muster"] as? [String: Any])
        #expect(muster["kind"] as? String == "message")
        #expect(muster["title"] as? String == "Drill")
    }

    @Test func aSilentPushIsABackgroundPushWithoutAnAlert() async throws {
        let world = try await APNsWorld.token()
        var push = try APNsWorld.push(notice: PushNotice(kind: .locationRequest))
        push.silent = true
        let outcome = await world.provider.send(push)
        let pushes = await world.server.waitForPushes(1)
        try await world.stop()
        let received = try #require(pushes.first)

        #expect(outcome.isDelivered)
        #expect(received.refusal == nil)
        #expect(received.headers["apns-push-type"] == "background")
        #expect(received.headers["apns-priority"] == "5", "APNs refuses priority 10 for a background push")
        let body = received.json()
        let aps = try #require(body["aps"] as? [String: Any])
        #expect(aps.count == 1 && aps["content-available"] as? Int == 1, "\(aps)")
        #expect((body["muster"] as? [String: Any])?["kind"] as? String == "locationRequest")
    }

    @Test func aQuietAlertReplacesTheMessagesByItsCollapseIdWithoutASound() async throws {
        let world = try await APNsWorld.token()
        var push = try APNsWorld.push(notice: PushNotice(kind: .withdrawn, messageId: UUID(), title: "Drill"))
        push.quiet = true
        let outcome = await world.provider.send(push)
        let pushes = await world.server.waitForPushes(1)
        try await world.stop()
        let received = try #require(pushes.first)

        #expect(outcome.isDelivered)
        #expect(received.headers["apns-push-type"] == "alert")
        #expect(received.headers["apns-collapse-id"] == "delivery-42")
        let aps = try #require(received.json()["aps"] as? [String: Any])
        #expect((aps["alert"] as? [String: Any])?["title"] as? String == "Drill")
        #expect(aps["sound"] == nil, "quiet: \(aps)")
        #expect((received.json()["muster"] as? [String: Any])?["kind"] as? String == "withdrawn")
    }

    @Test func theProviderTokenIsReusedAndSignedAgainAfterFiftyMinutes() async throws {
        let world = try await APNsWorld.token()
        let push = try APNsWorld.push()
        #expect(await world.provider.send(push).isDelivered)
        #expect(await world.provider.send(push).isDelivered)
        world.clock.advance(by: 49 * 60)
        #expect(await world.provider.send(push).isDelivered)
        world.clock.advance(by: 2 * 60)
        #expect(await world.provider.send(push).isDelivered)
        let received = await world.server.waitForPushes(4)
        try await world.stop()
        try #require(received.count == 4)

        let tokens = received.map { $0.headers["authorization"] }
        #expect(received.allSatisfy { $0.refusal == nil })
        #expect(tokens[0] == tokens[1] && tokens[1] == tokens[2])
        #expect(tokens[3] != tokens[0])
        #expect(received[3].claims?.iat == received[0].claims!.iat + 51 * 60)
    }

    @Test func anExpiredProviderTokenIsRetriedAndSignedAgain() async throws {
        let world = try await APNsWorld.token()
        let push = try APNsWorld.push()
        world.server.inject([.apns(403, reason: "ExpiredProviderToken")])
        let first = await world.provider.send(push)
        let second = await world.provider.send(push)
        let received = await world.server.waitForPushes(2)
        try await world.stop()
        try #require(received.count == 2)

        #expect(first == .retry(status: 403, reason: "ExpiredProviderToken", after: nil))
        #expect(second.isDelivered)
        #expect(received[0].headers["authorization"] != received[1].headers["authorization"])
    }

    @Test(arguments: [
        (StandInFault.apns(410, reason: "Unregistered"), PushOutcome.unregistered(status: 410, reason: "Unregistered")),
        (.apns(410, reason: "ExpiredToken"), .unregistered(status: 410, reason: "ExpiredToken")),
        (.apns(400, reason: "BadDeviceToken"), .unregistered(status: 400, reason: "BadDeviceToken")),
        (.apns(400, reason: "DeviceTokenNotForTopic"), .unregistered(status: 400, reason: "DeviceTokenNotForTopic")),
        (
            .apns(429, reason: "TooManyRequests", retryAfter: "3"),
            .retry(status: 429, reason: "TooManyRequests", after: .seconds(3))
        ),
        (.apns(503, reason: "ServiceUnavailable"), .retry(status: 503, reason: "ServiceUnavailable", after: nil)),
        (.apns(400, reason: "BadTopic"), .rejected(status: 400, reason: "BadTopic")),
        (.apns(403, reason: "InvalidProviderToken"), .rejected(status: 403, reason: "InvalidProviderToken")),
        (.answer(status: 404, body: "not json"), .rejected(status: 404, reason: "HTTP 404")),
    ])
    func anAnswerIsClassified(fault: StandInFault, expected: PushOutcome) async throws {
        let world = try await APNsWorld.token()
        world.server.inject([fault])
        let outcome = await world.provider.send(try APNsWorld.push())
        try await world.stop()
        #expect(outcome == expected)
    }

    @Test func aServerErrorIsRetriedAndTheNextAttemptDelivers() async throws {
        let world = try await APNsWorld.token()
        world.server.inject([.apns(500, reason: "InternalServerError")])
        let push = try APNsWorld.push()
        let first = await world.provider.send(push)
        let second = await world.provider.send(push)
        let received = await world.server.waitForPushes(2)
        try await world.stop()
        try #require(received.count == 2)

        #expect(first == .retry(status: 500, reason: "InternalServerError", after: nil))
        #expect(second == .delivered(providerId: received[1].apnsId))
    }

    @Test func aTokenThatIsNotHexIsUnregisteredWithoutARequest() async throws {
        let world = try await APNsWorld.token()
        let outcome = await world.provider.send(try APNsWorld.push(token: "not-a-device-token"))
        let received = world.server.pushes
        try await world.stop()
        #expect(outcome == .unregistered(status: 400, reason: "BadDeviceToken"))
        #expect(received.isEmpty)
    }

    @Test func aRefusedConnectionIsRetried() async throws {
        let world = try await APNsWorld.token()
        let endpoint = world.server.endpoint
        let trustRoots = world.server.trustRoots
        try await world.stop()
        let key = APNsTestKey()
        let configuration = try APNsConfiguration(
            authentication: .token(try APNsSigningKey(pem: key.pem), keyId: APNsWorld.keyId, teamId: APNsWorld.teamId),
            topic: APNsWorld.topic, endpoint: endpoint)
        let provider = await APNsProvider(
            configuration, options: .init(additionalTrustRoots: trustRoots, timeout: .seconds(3)))
        let outcome = await provider.send(try APNsWorld.push())
        try await provider.shutdown()

        guard case .retry(nil, let reason, nil) = outcome else {
            Issue.record("expected a retry without status, got \(outcome)")
            return
        }
        // The client tries to connect again until the deadline, then gives the refusal or the deadline.
        #expect(reason.hasPrefix("connection") || reason.hasPrefix("timeout"), "\(reason)")
    }

    @Test func aServerThatNeverAnswersTimesOutAndIsRetried() async throws {
        // Long enough for the connection and TLS handshake on a loaded machine: only the unanswered request
        // runs out of time.
        let world = try await APNsWorld.token(timeout: .seconds(8))
        world.server.inject([.neverAnswer])
        let outcome = await world.provider.send(try APNsWorld.push())
        let received = await world.server.waitForPushes(1)
        try await world.stop()

        // The request reached the server, which kept it unanswered.
        #expect(received.count == 1)
        #expect(outcome == .retry(status: nil, reason: "timeout: the provider did not answer in time", after: nil))
    }

    @Test func fitsKeepsThePayloadWithinFourKilobytes() async throws {
        let world = try await APNsWorld.token()
        let small = try APNsWorld.push()
        let large = try APNsWorld.push(
            notice: PushNotice(kind: .message, title: "Drill", body: String(repeating: "x", count: 4000)))
        let fits = (world.provider.fits(small), world.provider.fits(large))
        try await world.stop()
        #expect(fits.0)
        #expect(!fits.1)
    }

    @Test func aPayloadOverTheLimitIsRejectedByAPNs() async throws {
        let world = try await APNsWorld.token()
        let large = try APNsWorld.push(
            notice: PushNotice(kind: .message, title: "Drill", body: String(repeating: "x", count: 4000)))
        let outcome = await world.provider.send(large)
        try await world.stop()
        #expect(outcome == .rejected(status: 413, reason: "PayloadTooLarge"))
    }
}

extension PushOutcome {
    fileprivate var isDelivered: Bool {
        if case .delivered = self { return true }
        return false
    }
}
