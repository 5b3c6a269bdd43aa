import CMosquitto
import Foundation
import Logging
import Synchronization

/// One connection to an MQTT broker through libmosquitto, with its network loop on a dedicated thread.
///
/// Make it with a configuration and the handler of inbound messages, `connect()`, `subscribe(_:)` (and
/// `unsubscribe(_:)`), then
/// `publish(topic:payload:qos:retain:timeout:)` from any task; `shutdown()` disconnects and ends the thread.
///
/// **Inbound messages are acknowledged only after the handler returned.** The loop does not use
/// `mosquitto_loop_start`: it runs `mosquitto_loop_read`, `mosquitto_loop_write` and `mosquitto_loop_misc` itself
/// after `mosquitto_threaded_set(true)`. libmosquitto 2.0.11 (`lib/handle_publish.c`) answers a QoS 1 PUBLISH by
/// *queueing* its PUBACK and then calling `on_message`; in threaded mode `packet__queue` (`lib/packet_mosq.c`) never
/// writes, so the PUBACK leaves only with the loop's next `mosquitto_loop_write`. The loop collects the messages one
/// read brings into a batch, hands the batch to the handler, waits until the handler returned, and only then
/// writes. So:
/// - when the handler returns, the batch's PUBACKs are written (and publishes queued meanwhile with them);
/// - when the handler throws, nothing is written: the connection is dropped (`shutdown(2)` of the socket, then
///   `mosquitto_reconnect`, which discards the queued PUBACKs) and the broker delivers the batch again after the
///   reconnect — with a persistent session; a clean session loses it;
/// - when the process dies, or the connection breaks, before the write, the broker has no PUBACK and delivers the
///   messages again on the next connect of the same client id with a persistent session (with DUP set; libmosquitto
///   2.0.11 does not expose the DUP flag to `on_message`, so `MQTTMessage` has none);
/// - a PUBACK written is not proof the broker read it: if the connection breaks right after the write, the broker
///   may deliver a message the handler already stored. Delivery is at least once; the caller de-duplicates.
/// - QoS 0 messages are never acknowledged and never redelivered.
///
/// While the handler runs the loop neither reads nor writes, so publishes wait, and a handler slower than 1.5 ×
/// keepalive makes the broker drop the connection. A handler must not await a QoS 1 `publish` of the same client:
/// its PUBACK cannot be read before the handler returns (it times out).
///
/// A batch holds at most `batchLimit` messages. The broker may have up to `receiveMaximum` unacknowledged (MQTT 5
/// tells it so; with 3.1.1 its `max_inflight_messages` limits it): with the receive maximum above the batch limit,
/// the next batch is already on its way while one is handled, and is read from the socket right after the PUBACKs.
///
/// Thread use of the `mosquitto *` handle: the loop thread makes all network calls, runs every callback and destroys
/// the handle; other threads call only `mosquitto_publish_v5`, `mosquitto_subscribe_multiple` and
/// `mosquitto_unsubscribe_multiple`, which libmosquitto
/// makes thread-safe in threaded mode, and only under `shared`'s lock while the handle is not destroyed.
public final class MQTTClient: @unchecked Sendable {
    /// The configuration it was made with.
    public let configuration: MQTTConfiguration
    let handle: OpaquePointer
    let handler: @Sendable ([MQTTMessage]) async throws -> Void
    let logger: Logger
    let shared = Mutex(ClientState())
    let wakePipe: WakePipe

    // Touched by the loop thread only.
    var batch: [MQTTMessage] = []
    var failedAttempts = 0
    var refusal: String?
    var connectedOnce = false
    var lastNetworkError: String?
    /// When the broker last accepted the connection, while it stands.
    var connectedAt: ContinuousClock.Instant?
    /// Connections in a row the broker closed within `shortConnection` of accepting them.
    var shortConnections = 0

    /// Makes a client; nothing is connected until `connect(timeout:)`.
    ///
    /// - Parameter onMessages: receives each batch of inbound messages in the order the broker sent them, one batch
    ///   at a time, on a task started from the loop thread. Return once the messages are stored; throw to have them
    ///   delivered again (see the type's documentation).
    public init(
        _ configuration: MQTTConfiguration, logger: Logger = Logger(label: "muster.mqtt"),
        onMessages: @escaping @Sendable ([MQTTMessage]) async throws -> Void
    ) throws {
        try configuration.validate()
        try MosquittoLibrary.initialise()
        let persistent = if case .persistent = configuration.session { true } else { false }
        guard let handle = mosquitto_new(configuration.clientID, !persistent, nil) else {
            throw MQTTError(
                .library,
                "mosquitto_new failed for client id \(configuration.clientID): \(String(cString: strerror(errno)))")
        }
        self.configuration = configuration
        self.handle = handle
        self.handler = onMessages
        self.logger = logger
        do {
            wakePipe = try WakePipe()
            try configure()
        } catch {
            mosquitto_destroy(handle)
            throw error
        }
        mosquitto_user_data_set(handle, Unmanaged.passUnretained(self).toOpaque())
        installCallbacks()
    }

    /// The connection state now.
    public var state: MQTTConnectionState { shared.withLock { $0.connection } }

    /// The counters now.
    public var counters: MQTTCounters { shared.withLock { $0.counters } }

    /// The topic filters subscribed (and subscribed again after a reconnect that lost the session).
    public var subscriptions: [String] { shared.withLock { $0.subscriptions } }

    /// The current state, then each change until the client stops.
    public func stateUpdates() -> AsyncStream<MQTTConnectionState> {
        let (stream, continuation) = AsyncStream.makeStream(of: MQTTConnectionState.self)
        let id = shared.withLock { state in
            let id = state.nextObserver
            state.nextObserver += 1
            continuation.yield(state.connection)
            if state.phase == .destroyed {
                continuation.finish()
            } else {
                state.observers[id] = continuation
            }
            return id
        }
        continuation.onTermination = { [weak self] _ in
            _ = self?.shared.withLock { $0.observers.removeValue(forKey: id) }
        }
        return stream
    }

    /// Waits until `condition` holds for the connection state, or throws `timedOut` after `timeout`.
    public func waitForState(
        timeout: Duration, _ condition: @escaping @Sendable (MQTTConnectionState) -> Bool
    ) async throws {
        let updates = stateUpdates()
        let found = try await withThrowingTaskGroup(of: Bool.self) { group in
            group.addTask {
                for await state in updates where condition(state) { return true }
                return false
            }
            group.addTask {
                try await Task.sleep(for: timeout)
                return false
            }
            let first = try await group.next() ?? false
            group.cancelAll()
            return first
        }
        if !found {
            throw MQTTError(
                .timedOut,
                "the connection to \(configuration.address) did not reach the expected state within \(timeout); it is \(state)"
            )
        }
    }

    deinit {
        // The loop thread holds a strong reference until it destroyed the handle, so only a client never
        // connected (or already shut down) gets here.
        if shared.withLock({ $0.phase }) == .new { mosquitto_destroy(handle) }
        wakePipe.close()
    }

    /// Applies the configuration to the handle before the first connect.
    private func configure() throws {
        try check(mosquitto_threaded_set(handle, true), "mosquitto_threaded_set")
        let version = configuration.protocolVersion == .v5 ? MQTT_PROTOCOL_V5 : MQTT_PROTOCOL_V311
        try check(
            mosquitto_int_option(handle, MOSQ_OPT_PROTOCOL_VERSION, Int32(version)),
            "mosquitto_int_option(protocol version)")
        try check(
            mosquitto_int_option(handle, MOSQ_OPT_RECEIVE_MAXIMUM, Int32(configuration.receiveMaximum)),
            "mosquitto_int_option(receive maximum)")
        if let userName = configuration.userName {
            // Never named with the password in an error: only the call.
            try check(mosquitto_username_pw_set(handle, userName, configuration.password), "mosquitto_username_pw_set")
        }
        if let tls = configuration.tls {
            let rc = mosquitto_tls_set(handle, tls.caFile, nil, tls.certificateFile, tls.keyFile, nil)
            if rc != MOSQ_ERR_SUCCESS.rawValue {
                throw MQTTError.configuration(
                    "TLS files not usable (CA file \(tls.caFile), certificate \(tls.certificateFile ?? "none"), key "
                        + "\(tls.keyFile ?? "none")): \(MQTTError.libraryText(rc)); expected readable PEM files")
            }
        }
    }

    func check(_ rc: Int32, _ call: String) throws {
        if rc != MOSQ_ERR_SUCCESS.rawValue { throw MQTTError.library(rc, call) }
    }
}
