import Foundation
import MusterWire
import PushProviders
import PushTesting
import Testing

/// The provider against the local push service: real HTTP on loopback, real encryption and VAPID.
@Suite(.timeLimit(.minutes(5))) struct WebPushProviderTests {
    static let subject = "mailto:ops@muster.example"

    struct Plaintext: Decodable {
        var title: String
        var body: String
        var muster: PushNotice
    }

    static func push(
        to subscription: WebPushEndpoint.Subscription, notice: PushNotice = PushNotice(kind: .test, title: "T"),
        collapseId: String = "delivery-42", expiresIn: TimeInterval = 3600
    ) throws -> Push {
        try Push(
            token: subscription.json, title: "Fire drill", body: "Assemble at \"point B\" / now",
            notice: [UInt8](JSONEncoder().encode(notice)),
            collapseId: collapseId, expiresAt: Date().addingTimeInterval(expiresIn))
    }

    /// A provider with a fresh key and an endpoint that accepts only that key, stopped after `body`.
    static func withEndpoint(
        options: ProviderConnectionOptions = .init(), bulk: Bool = false,
        _ body: (WebPushProvider, WebPushEndpoint) async throws -> Void
    ) async throws {
        let key = VAPIDKey()
        let endpoint = try await WebPushEndpoint.start(expectedKey: key.publicKey, bulk: bulk)
        let provider = try WebPushProvider(key: key, subject: subject, options: options)
        do {
            try await body(provider, endpoint)
        } catch {
            try await provider.shutdown()
            await endpoint.stop()
            throw error
        }
        try await provider.shutdown()
        await endpoint.stop()
    }

    @Test func aPushArrivesDecryptedWithItsHeaders() async throws {
        try await Self.withEndpoint { provider, endpoint in
            let subscription = endpoint.subscribe()
            let notice = PushNotice(kind: .message, messageId: UUID(), title: "Fire drill", body: "Assemble")
            let outcome = try await provider.send(Self.push(to: subscription, notice: notice))
            let received = try #require(endpoint.received.first)
            #expect(outcome == .delivered(providerId: received.location))
            #expect(received.location.hasPrefix("/receipts/"))
            #expect(received.subscription == subscription.id)
            let plaintext = try JSONDecoder().decode(Plaintext.self, from: Data(received.plaintext))
            #expect(plaintext.title == "Fire drill")
            #expect(plaintext.body == "Assemble at \"point B\" / now")
            #expect(plaintext.muster == notice)
            #expect((3590...3600).contains(try #require(received.ttl)))
            #expect(received.topic == "delivery-42")
            #expect(received.urgency == "high")
            #expect(received.vapid.subject == Self.subject)
        }
    }

    @Test func aCollapseIdOutsideTheTopicAlphabetIsHashedToOne() async throws {
        try await Self.withEndpoint { provider, endpoint in
            let subscription = endpoint.subscribe()
            let long = String(repeating: "a", count: 33)
            for collapseId in ["notification:7/user:ada", long, "notification:7/user:ada"] {
                _ = try await provider.send(Self.push(to: subscription, collapseId: collapseId))
            }
            let topics = endpoint.received.map(\.topic)
            #expect(topics.count == 3)
            #expect(topics[0] == topics[2])
            for topic in topics {
                let topic = try #require(topic)
                #expect(topic.count == 32)
                #expect(topic.allSatisfy { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" })
            }
            #expect(topics[1] != String(repeating: "a", count: 32))
        }
    }

    @Test func aPastExpiryIsSentWithTTLZero() async throws {
        try await Self.withEndpoint { provider, endpoint in
            let outcome = try await provider.send(Self.push(to: endpoint.subscribe(), expiresIn: -60))
            guard case .delivered(.some) = outcome else { Issue.record("gave \(outcome)"); return }
            #expect(endpoint.received.map(\.ttl) == [0])
        }
    }

    @Test func goneIsUnregistered() async throws {
        try await Self.withEndpoint { provider, endpoint in
            let subscription = endpoint.subscribe()
            endpoint.inject(.status(410), subscription: subscription.id)
            let first = try await provider.send(Self.push(to: subscription))
            guard case .unregistered(410, _) = first else { Issue.record("410 gave \(first)"); return }
            endpoint.unsubscribe(subscription.id)
            let second = try await provider.send(Self.push(to: subscription))
            #expect(second == .unregistered(status: 410, reason: "the subscription ended"))
            endpoint.inject(.status(404))
            let third = try await provider.send(Self.push(to: endpoint.subscribe()))
            guard case .unregistered(404, _) = third else { Issue.record("404 gave \(third)"); return }
        }
    }

    @Test func tooManyRequestsIsRetriedAfterRetryAfter() async throws {
        try await Self.withEndpoint { provider, endpoint in
            let subscription = endpoint.subscribe()
            endpoint.inject(.status(429, retryAfter: "7"), subscription: subscription.id)
            let outcome = try await provider.send(Self.push(to: subscription))
            #expect(outcome == .retry(status: 429, reason: "fault injected: 429", after: .seconds(7)))
            let next = try await provider.send(Self.push(to: subscription))
            guard case .delivered = next else { Issue.record("after the fault: \(next)"); return }
        }
    }

    @Test func aServerErrorIsRetried() async throws {
        try await Self.withEndpoint { provider, endpoint in
            endpoint.inject(.status(500), times: 2)
            let subscription = endpoint.subscribe()
            for _ in 0..<2 {
                let outcome = try await provider.send(Self.push(to: subscription))
                #expect(outcome == .retry(status: 500, reason: "fault injected: 500", after: nil))
            }
            #expect(endpoint.requestCount == 2 && endpoint.receivedCount == 0)
        }
    }

    @Test func refusalsAreRejectedWithTheirText() async throws {
        try await Self.withEndpoint { provider, endpoint in
            endpoint.inject(.status(413))
            let outcome = try await provider.send(Self.push(to: endpoint.subscribe()))
            #expect(outcome == .rejected(status: 413, reason: "fault injected: 413"))
        }
    }

    @Test func anotherApplicationServerKeyIsForbidden() async throws {
        let endpoint = try await WebPushEndpoint.start(expectedKey: VAPIDKey().publicKey)
        let provider = try WebPushProvider(key: VAPIDKey(), subject: Self.subject)
        let outcome = try await provider.send(Self.push(to: endpoint.subscribe()))
        try await provider.shutdown()
        await endpoint.stop()
        #expect(outcome == .rejected(status: 403, reason: "the token is signed by another application server key"))
    }

    @Test func aBadTokenIsRejectedWithoutARequest() async throws {
        try await Self.withEndpoint { provider, endpoint in
            var push = try Self.push(to: endpoint.subscribe())
            push.token = #"{"endpoint":"http://push.example/x","keys":{"p256dh":"AAAA","auth":"AAAA"}}"#
            let outcome = await provider.send(push)
            guard case .rejected(nil, let reason) = outcome else { Issue.record("gave \(outcome)"); return }
            #expect(reason.contains("token.endpoint"))
            #expect(endpoint.requestCount == 0)
        }
    }

    @Test func anEndpointThatNeverAnswersTimesOut() async throws {
        try await Self.withEndpoint(options: .init(timeout: .milliseconds(300))) { provider, endpoint in
            endpoint.inject(.hold)
            let outcome = try await provider.send(Self.push(to: endpoint.subscribe()))
            guard case .retry(nil, let reason, nil) = outcome else { Issue.record("gave \(outcome)"); return }
            // Under load the deadline may pass before the request is even written; either way no answer came.
            #expect(reason.hasPrefix("timeout"))
            #expect(endpoint.receivedCount == 0)
        }
    }

    /// The client tries to connect again until the deadline, then reports the last failure.
    @Test func aRefusedConnectionIsRetried() async throws {
        // A port bound and not listening refuses every connection, and no other test can take it meanwhile (a port
        // merely freed could be taken by another test's server in a full run, which then held the connection).
        let refusing = try RefusingPort()
        defer { refusing.close() }
        let endpoint = try await WebPushEndpoint.start()
        var subscription = endpoint.subscribe()
        await endpoint.stop()
        subscription.json = subscription.json.replacingOccurrences(
            of: "127.0.0.1:\(endpoint.port)/", with: "127.0.0.1:\(refusing.port)/")
        try #require(subscription.json.contains(":\(refusing.port)/"), "\(subscription.json)")
        let provider = try WebPushProvider(
            key: VAPIDKey(), subject: Self.subject, options: .init(timeout: .seconds(3)))
        let outcome = try await provider.send(Self.push(to: subscription))
        try await provider.shutdown()
        guard case .retry(nil, let reason, nil) = outcome else { Issue.record("gave \(outcome)"); return }
        #expect(reason.hasPrefix("connection"), "\(reason)")
    }

    @Test func aHugeNoticeDoesNotFit() async throws {
        let provider = try WebPushProvider(key: VAPIDKey(), subject: Self.subject)
        let token = WebPushSubscriptionTests.json()
        let small = PushNotice(kind: .message, messageId: UUID(), title: "Hello")
        let huge = PushNotice(kind: .message, body: String(repeating: "x", count: 4000))
        func push(_ notice: PushNotice) throws -> Push {
            try Push(
                token: token, title: "t", body: "b", notice: [UInt8](JSONEncoder().encode(notice)),
                collapseId: "c", expiresAt: Date())
        }
        #expect(try provider.fits(push(small)))
        #expect(try !provider.fits(push(huge)))
        let outcome = try await provider.send(push(huge))
        try await provider.shutdown()
        guard case .rejected(nil, let reason) = outcome else { Issue.record("gave \(outcome)"); return }
        #expect(reason.contains("at most 3993"))
    }

    @Test func manyPushesAreCountedInBulk() async throws {
        // Forty pushes at once share the machine with a full run's other tests: each may take long to be answered,
        // and this test is about counting them, not about the deadline.
        try await Self.withEndpoint(options: .init(timeout: .seconds(120)), bulk: true) { provider, endpoint in
            let subscriptions = (0..<4).map { _ in endpoint.subscribe() }
            let pushes = try (0..<40).map { try Self.push(to: subscriptions[$0 % 4]) }
            let outcomes = await withTaskGroup(of: PushOutcome.self) { group in
                for push in pushes { group.addTask { await provider.send(push) } }
                return await group.reduce(into: []) { $0.append($1) }
            }
            // Every send has returned: a push not delivered will not arrive, so say why rather than wait for it.
            let undelivered = outcomes.filter { if case .delivered(.some) = $0 { false } else { true } }
            try #require(undelivered.isEmpty, "\(undelivered.count) of 40 not delivered: \(undelivered)")
            #expect(await endpoint.waitForPushes(40))
            #expect(endpoint.receivedCount == 40 && endpoint.received.isEmpty)
        }
    }
}

/// A TCP port on loopback that is bound but not listening: a connection to it is refused.
struct RefusingPort {
    let descriptor: Int32
    let port: Int

    init() throws {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw POSIXError(.init(rawValue: errno) ?? .EIO) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0
            }
        }
        guard bound else {
            let failure = POSIXError(.init(rawValue: errno) ?? .EIO)
            Foundation.close(fd)
            throw failure
        }
        descriptor = fd
        port = Int(UInt16(bigEndian: address.sin_port))
    }

    func close() { _ = Foundation.close(descriptor) }
}
