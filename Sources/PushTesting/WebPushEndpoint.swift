import Crypto
import Foundation
import Hummingbird
import PushProviders
import ServiceLifecycle
import Synchronization

/// A Web Push push service on loopback (plain HTTP/1 on 127.0.0.1) for tests and the benchmark: makes
/// subscriptions, and takes pushes to them as a real service does — VAPID checked, body decrypted with the
/// subscription's keys, `201 Created` with a `Location` — unless told to fail first.
///
/// ```swift
/// let endpoint = try await WebPushEndpoint.start()
/// let subscription = endpoint.subscribe()   // subscription.json is a Push's token
/// …
/// await endpoint.stop()
/// ```
public final class WebPushEndpoint: Sendable {
    /// A subscription the endpoint made: its id and the JSON a browser would register.
    public struct Subscription: Sendable {
        public var id: String
        /// `http://127.0.0.1:<port>/push/<id>`.
        public var endpoint: URL
        /// As `PushSubscription.toJSON()` gives it.
        public var json: String
    }

    /// The port it listens on.
    public let port: Int
    /// Whether pushes are only counted (still verified and decrypted), not kept.
    public let bulk: Bool
    private let state: WebPushEndpointState
    private let group: ServiceGroup
    private let server: Task<Void, any Error>

    private init(
        port: Int, bulk: Bool, state: WebPushEndpointState, group: ServiceGroup, server: Task<Void, any Error>
    ) {
        self.port = port
        self.bulk = bulk
        self.state = state
        self.group = group
        self.server = server
    }

    /// Starts listening on 127.0.0.1 on a free port. `expectedKey` (base64url): refuse tokens signed by another
    /// application server key (403). `bulk`: count pushes instead of keeping them.
    public static func start(expectedKey: String? = nil, bulk: Bool = false) async throws -> WebPushEndpoint {
        let state = WebPushEndpointState(expectedKey: expectedKey, bulk: bulk)
        let router = Router()
        router.post("push/:id") { request, context in
            await state.take(request, id: context.parameters.get("id") ?? "")
        }
        let (ports, found) = AsyncStream.makeStream(of: Int.self)
        var application = Application(
            router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0), serverName: nil),
            onServerRunning: { channel in
                found.yield(channel.localAddress?.port ?? 0)
                found.finish()
            })
        application.logger.logLevel = .warning
        let group = ServiceGroup(configuration: .init(services: [application], logger: application.logger))
        let server = Task {
            defer { found.finish() }
            try await group.run()
        }
        var iterator = ports.makeAsyncIterator()
        guard let port = await iterator.next(), port != 0 else {
            try await server.value
            throw WebPushEndpointError("the local Web Push endpoint stopped before it listened")
        }
        state.listening(on: port)
        return WebPushEndpoint(port: port, bulk: bulk, state: state, group: group, server: server)
    }

    /// `http://127.0.0.1:<port>`: the audience VAPID tokens must name.
    public var origin: String { "http://127.0.0.1:\(port)" }

    /// A new subscription: a fresh P-256 key agreement key and 16-byte auth secret.
    public func subscribe() -> Subscription {
        let id = UUID().uuidString.lowercased()
        let privateKey = P256.KeyAgreement.PrivateKey()
        let auth = (0..<16).map { _ in UInt8.random(in: .min ... .max) }
        let endpoint = URL(string: "\(origin)/push/\(id)")!
        // A loopback http: endpoint and a 16-byte secret: always valid.
        let subscription = try! WebPushSubscription(endpoint: endpoint, p256dh: privateKey.publicKey, auth: auth)
        state.add(id: id, privateKey: privateKey, auth: auth)
        return Subscription(id: id, endpoint: endpoint, json: subscription.json)
    }

    /// Ends a subscription: later pushes to it are answered 410 Gone.
    public func unsubscribe(_ id: String) { state.remove(id: id) }

    /// Answers the next `times` pushes as `fault` says, before anything else: pushes to `subscription` when given
    /// (its faults come first), to any subscription when nil. Faults queue in the order given.
    public func inject(_ fault: WebPushFault, times: Int = 1, subscription: String? = nil) {
        state.inject(fault, times: times, subscription: subscription)
    }

    /// The pushes taken so far, in order (none in bulk mode).
    public var received: [WebPushReceivedPush] { state.values.withLock { $0.received } }

    /// How many pushes were taken (verified, decrypted, answered 201).
    public var receivedCount: Int { state.values.withLock { $0.receivedCount } }

    /// How many requests came to `/push/…`, faults and refusals included.
    public var requestCount: Int { state.values.withLock { $0.requestCount } }

    /// How many requests came for one subscription, whatever they were answered (a fault, 410, taken…).
    public func requestCount(for subscription: String) -> Int {
        state.values.withLock { $0.requestsBySubscription[subscription] ?? 0 }
    }

    /// Returns once `count` pushes were taken in all: true; or once the endpoint stopped short of them: false.
    @discardableResult
    public func waitForPushes(_ count: Int) async -> Bool { await state.wait(for: count) }

    /// Answers held requests (503), wakes those waiting, stops listening and returns once the requests in flight
    /// are answered.
    public func stop() async {
        state.stop()
        await group.triggerGracefulShutdown()
        _ = try? await server.value
    }
}

/// The local Web Push endpoint could not start.
public struct WebPushEndpointError: Error, Sendable, CustomStringConvertible {
    public var description: String

    init(_ description: String) { self.description = description }
}
