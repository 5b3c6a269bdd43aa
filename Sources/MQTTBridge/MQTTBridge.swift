import EventLog
import Foundation
import Logging
import MQTT
import MQTTConnect
import Muster
import MusterWire
import PushProviders
import ServiceLifecycle
import Synchronization

/// The MQTT edge (seed 001): one broker connection through which Muster listens on every MQTT device's publish
/// topic and reaches each on its subscribe topic. It only translates: what devices publish becomes domain calls
/// (`DevicePublications`), and the delivery service's pushes to MQTT devices become `DialogMessage`s
/// (`DialogPublisher`).
///
/// A batch of inbound messages is acknowledged to the broker only after its events are committed (see
/// `MQTTClient`), so a crash makes the broker deliver it again and de-duplication records it once.
public final class MQTTBridge: Service, Sendable {
    let options: MQTTBridgeOptions
    let log: EventLog
    let devices: MQTTDevices
    let publications: DevicePublications
    let counters: BridgeCounters
    let receipts: Receipts
    let logger: Logger
    let client = Mutex<MQTTClient?>(nil)
    /// Publish topic → the device publishing there.
    let routes = Mutex<[String: MQTTDevice]>([:])
    private let lastFailure = Mutex<String?>(nil)
    /// Asks `keepSubscriptions()` to bring the subscriptions in line with the devices; requests made while it works
    /// are one more pass.
    let subscriptionRequests = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
    /// New publish topics settings messages give devices, listened on while their receipts are awaited.
    let pendingMoves = Mutex<[String: PendingMove]>([:])

    public init(log: EventLog, options: MQTTBridgeOptions, rules: RuleEngine, logger: Logger) {
        self.options = options
        self.log = log
        devices = MQTTDevices(log: log)
        counters = BridgeCounters()
        receipts = Receipts()
        self.logger = logger
        publications = DevicePublications(
            devices: devices, notifications: Notifications(log: log), documents: Documents(log: log),
            directory: Directory(log: log), rules: rules,
            sizeLimit: options.sizeLimit, counters: counters, receipts: receipts, logger: logger)
    }

    /// The delivery service's way to MQTT devices.
    public var publisher: any PushProvider { DialogPublisher(bridge: self) }

    public func run() async throws {
        for device in try devices.devices() { routes.withLock { $0[device.publishTopic] = device } }
        let start = log.head + 1
        await withDiscardingTaskGroup { group in
            group.addTask { await self.followDevices() }
            group.addTask { await self.keepSubscriptions() }
            if let prefix = options.topicPrefix {
                let forwarder = TopicForwarder(
                    log: log, prefix: prefix, publish: { await self.publish(topic: $0, payload: $1) }, logger: logger)
                group.addTask { await forwarder.run(from: start) }
            }
            group.addTask { await self.connect() }
            try? await gracefulShutdown()
            group.cancelAll()
        }
        let connected = client.withLock { client -> MQTTClient? in
            defer { client = nil }
            return client
        }
        await connected?.shutdown()
    }

    /// Connects, trying again with a growing pause until the broker takes the connection, then subscribes to every
    /// device's publish topic. The client reconnects by itself after that.
    private func connect() async {
        var pause = Duration.seconds(1)
        while !Task.isCancelled {
            do {
                let made = try MQTTClient(options.connection, logger: logger) { [weak self] messages in
                    guard let self else { throw CancellationError() }
                    try await self.publications.handle(
                        messages, routes: try self.routes(for: messages),
                        subscribed: Set(self.client.withLock { $0 }?.subscriptions ?? []))
                }
                do {
                    try await made.connect(timeout: options.connectTimeout)
                } catch {
                    await made.shutdown()
                    throw error
                }
                client.withLock { $0 = made }
                lastFailure.withLock { $0 = nil }
                logger.info("MQTT bridge connected to \(options.connection.address)")
                try await subscribe(routes.withLock { Array($0.keys) })
                // Devices registered or removed while it connected.
                subscriptionRequests.continuation.yield()
                await watch(made)
                return
            } catch {
                lastFailure.withLock { $0 = "\(error)" }
                logger.error(
                    "MQTT bridge cannot connect to \(options.connection.address): \(error); trying again in \(pause)")
                try? await Task.sleep(for: pause)
                pause = min(pause * 2, .seconds(30))
            }
        }
    }

    /// Follows the connection until the bridge stops: each reconnect brings the subscriptions in line again (an
    /// unsubscription that failed while the broker was away), and a session taken over is logged as the error it
    /// is, with what to do.
    private func watch(_ client: MQTTClient) async {
        var takenOver = 0
        for await state in client.stateUpdates() {
            if state.isConnected { subscriptionRequests.continuation.yield() }
            let now = client.counters.sessionsTakenOver
            guard now > takenOver else { continue }
            takenOver = now
            let clientId = String(reflecting: options.connection.clientID)
            let consequence =
                "another Muster server, or another MQTT client, connects with the same client id. The two take "
                + "the session from each other: each gets messages for the other's devices, acknowledges them and "
                + "refuses them, and they are lost. Give each server its own --mqtt-client-id"
            logger.error(
                "MQTT bridge: another connection took this server's session at \(options.connection.address) (client id \(clientId), \(now) time(s) so far): \(consequence)"
            )
        }
    }

    /// Keeps the routes current as devices are registered, moved and removed; the subscriptions follow
    /// (`keepSubscriptions()`).
    private func followDevices() async {
        do {
            for try await change in devices.changes() {
                let topic = change.device.publishTopic
                routes.withLock { routes in
                    switch change.kind {
                    case .registered: routes[topic] = change.device
                    case .removed:
                        // Only this device's route: another may have been registered on the topic since.
                        if routes[topic]?.isSameDevice(as: change.device) == true { routes[topic] = nil }
                    }
                }
                subscriptionRequests.continuation.yield()
            }
        } catch is CancellationError {
        } catch {
            logger.error("MQTT bridge stopped following device registrations: \(error)")
        }
    }

    /// Where each message's topic leads: the routes, and for a topic they lack the log's devices (a device
    /// registered a moment ago whose change the routes have not followed yet).
    private func routes(for messages: [MQTTMessage]) throws -> [String: MQTTDevice] {
        var routes = routes.withLock { $0 }
        let missing = Set(messages.map(\.topic)).filter { routes[$0] == nil }
        guard !missing.isEmpty else { return routes }
        for device in try devices.devices() where missing.contains(device.publishTopic) {
            routes[device.publishTopic] = device
        }
        // A new publish topic a settings message gives a device: its receipt comes there.
        for (topic, move) in pendingMoves.withLock({ $0 }) where routes[topic] == nil && missing.contains(topic) {
            routes[topic] = move.device
        }
        return routes
    }

    func subscribe(_ topics: [String]) async throws {
        guard let client = client.withLock({ $0 }), !topics.isEmpty else { return }
        do {
            try await client.subscribe(topics.sorted())
        } catch {
            logger.error("MQTT bridge could not subscribe to \(topics.count) device topic(s): \(error)")
            throw error
        }
    }

    /// The devices that receive on `topic` (their subscribe topic).
    func devices(subscribedTo topic: String) -> [MQTTDevice] {
        routes.withLock { $0.values.filter { $0.subscribeTopic == topic } }
    }

    /// Publishes with QoS 1; the outcome as the delivery service records it.
    func publish(topic: String, payload: [UInt8]) async -> PushOutcome {
        guard let client = client.withLock({ $0 }) else {
            counters.add(\.publishFailures)
            return .retry(
                status: nil, reason: "not connected to the MQTT broker \(options.connection.address)", after: nil)
        }
        do {
            try await client.publish(topic: topic, payload: payload, qos: .atLeastOnce, timeout: .seconds(10))
            counters.add(\.published)
            return .delivered(providerId: nil)
        } catch let error as MQTTError where error.code == .publishRefused {
            counters.add(\.publishFailures)
            return .rejected(status: error.reasonCode, reason: error.message)
        } catch {
            counters.add(\.publishFailures)
            return .retry(status: nil, reason: "\(error)", after: nil)
        }
    }

    /// The connection and what the bridge did, for `muster mqtt status`.
    public var status: MQTTStatus {
        let client = client.withLock { $0 }
        let routes = routes.withLock { $0 }
        return MQTTStatus(
            broker: options.connection.address,
            state: client.map { "\($0.state)" } ?? "not connected: \(lastFailure.withLock { $0 } ?? "connecting")",
            clientId: options.connection.clientID, devices: routes.count,
            subscriptions: client?.subscriptions ?? [], counts: counters.now,
            topicsPublishedThrough: options.topicPrefix == nil
                ? nil : try? log.followerPosition(TopicForwarder.followerName))
    }
}

/// The broker did not take a message the bridge published (not connected, refused, no acknowledgement).
public struct NotPublished: Error, Sendable, CustomStringConvertible {
    let outcome: PushOutcome

    init(outcome: PushOutcome) { self.outcome = outcome }

    /// Nothing was published, for `reason`.
    init(_ reason: String) { outcome = .retry(status: nil, reason: reason, after: nil) }
    public var description: String {
        switch outcome {
        case .retry(_, let reason, _), .rejected(_, let reason), .unregistered(_, let reason): reason
        case .delivered: "published"
        }
    }
}
