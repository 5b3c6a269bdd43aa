import CMosquitto
import Logging

/// libmosquitto's callbacks. They run on the loop thread only (inside `mosquitto_loop_read` and friends), with the
/// client as user data; the loop thread holds the client alive while the handle exists.
extension MQTTClient {
    func installCallbacks() {
        mosquitto_connect_v5_callback_set(handle) { _, userData, reasonCode, flags, _ in
            MQTTClient.from(userData).connected(reasonCode: Int(reasonCode), sessionPresent: flags & 1 != 0)
        }
        mosquitto_disconnect_v5_callback_set(handle) { _, userData, rc, _ in
            MQTTClient.from(userData).disconnected(rc: rc)
        }
        mosquitto_publish_v5_callback_set(handle) { _, userData, mid, reasonCode, _ in
            MQTTClient.from(userData).acknowledge(mid, reasonCodes: [Int(reasonCode)])
        }
        mosquitto_subscribe_v5_callback_set(handle) { _, userData, mid, count, granted, _ in
            let codes = (0..<Int(count)).map { Int(granted![$0]) }
            MQTTClient.from(userData).subscribed(mid, reasonCodes: codes)
        }
        mosquitto_unsubscribe_v5_callback_set(handle) { _, userData, mid, _ in
            // libmosquitto 2.0.11 hands over no UNSUBACK reason codes: the UNSUBACK itself is the answer.
            MQTTClient.from(userData).acknowledge(mid, reasonCodes: [])
        }
        mosquitto_message_v5_callback_set(handle) { _, userData, message, _ in
            guard let message = message?.pointee else { return }
            MQTTClient.from(userData).received(message)
        }
    }

    private static func from(_ userData: UnsafeMutableRawPointer?) -> MQTTClient {
        Unmanaged<MQTTClient>.fromOpaque(userData!).takeUnretainedValue()
    }

    /// CONNACK: accepted, or refused with a reason the first `connect()` throws or the state shows.
    private func connected(reasonCode: Int, sessionPresent: Bool) {
        guard reasonCode == 0 else {
            let reason = MQTTError.refusalText(reasonCode, configuration.protocolVersion)
            refusal = reason
            logger.warning(
                "MQTT connect refused", metadata: ["broker": "\(configuration.address)", "reason": "\(reason)"])
            let waiter = shared.withLock { state -> CheckedContinuation<Void, any Error>? in
                state.counters.connectsRefused += 1
                guard let waiter = state.connectWaiter else { return nil }
                state.connectWaiter = nil
                state.phase = .stopping
                return waiter
            }
            waiter?.resume(
                throwing: MQTTError(
                    .refused,
                    "connecting to the MQTT broker at \(configuration.address) as "
                        + "\(configuration.userName.map { "user \($0)" } ?? "anonymous"): \(reason)",
                    reasonCode: reasonCode))
            return
        }
        failedAttempts = 0
        refusal = nil
        connectedOnce = true
        connectedAt = .now
        let (waiter, resubscribe) = shared.withLock { state in
            state.counters.connects += 1
            state.set(.connected(sessionPresent: sessionPresent))
            let waiter = state.connectWaiter
            state.connectWaiter = nil
            return (waiter, sessionPresent ? [] : state.subscriptions)
        }
        logger.info(
            "MQTT connected",
            metadata: ["broker": "\(configuration.address)", "session present": "\(sessionPresent)"])
        if !resubscribe.isEmpty {
            // The broker lost the session (or it is a clean one): subscribe again; the SUBACK needs no waiter.
            do { _ = try subscribeNow(resubscribe) } catch {
                logger.error("MQTT resubscribe failed", metadata: ["error": "\(error)"])
            }
        }
        waiter?.resume()
    }

    /// The connection ended: lost, refused, taken over, or closed by `shutdown()`.
    private func disconnected(rc: Int32) {
        let takenOver = sessionTakenOver(rc: rc)
        let reason = refusal ?? (takenOver ? takeoverText(rc: rc) : "connection lost: \(Self.disconnectText(rc))")
        // `shutdown()`'s own DISCONNECT ends here too; that is no loss.
        let (wasConnected, connectWaiter) = shared.withLock {
            state -> (Bool, CheckedContinuation<Void, any Error>?) in
            guard state.phase == .running else { return (false, nil) }
            if let waiter = state.connectWaiter {
                // The first connect ended before CONNACK (a TLS handshake that failed, a broker that hung up).
                state.connectWaiter = nil
                state.phase = .stopping
                return (false, waiter)
            }
            let wasConnected = state.connection.isConnected
            if wasConnected { state.counters.disconnects += 1 }
            if takenOver { state.counters.sessionsTakenOver += 1 }
            state.set(.reconnecting(reason: reason, attempt: failedAttempts))
            return (wasConnected, nil)
        }
        connectWaiter?.resume(
            throwing: MQTTError(
                .unreachable,
                "the connection to the MQTT broker at \(configuration.address) ended before CONNACK: \(reason)"
                    + certificateHint))
        if wasConnected {
            logger.warning(
                "MQTT disconnected", metadata: ["broker": "\(configuration.address)", "reason": "\(reason)"])
        }
    }

    /// Connections in a row closed this soon after CONNACK are the sign of a takeover.
    static let shortConnection = Duration.seconds(5)
    /// How many such connections in a row are taken for a takeover: one may be a broker restarting.
    static let takeoverSign = 3

    /// Whether the connection ended because another connection took the session: the broker said so (MQTT 5
    /// DISCONNECT 0x8E), or it closed `takeoverSign` connections in a row within `shortConnection` of accepting
    /// them — mosquitto 2.0.11 closes the old connection without a DISCONNECT, so two clients with one id take the
    /// session from each other at every reconnect (each backing off, as `waitBeforeReconnect` counts these).
    private func sessionTakenOver(rc: Int32) -> Bool {
        let lasted = connectedAt.map { ContinuousClock.now - $0 }
        connectedAt = nil
        if rc == Int32(MQTT_RC_SESSION_TAKEN_OVER.rawValue) { return true }
        guard let lasted, rc != MOSQ_ERR_SUCCESS.rawValue else { return false }
        shortConnections = lasted < Self.shortConnection ? shortConnections + 1 : 0
        return shortConnections >= Self.takeoverSign
    }

    /// Why the connection ended when another connection took the session, naming the client id.
    private func takeoverText(rc: Int32) -> String {
        let how =
            rc == Int32(MQTT_RC_SESSION_TAKEN_OVER.rawValue)
            ? "DISCONNECT 0x8E" : "it closed \(shortConnections) connections in a row within seconds of accepting them"
        return "session taken over: the broker gave the session of client id "
            + "\(String(reflecting: configuration.clientID)) to another connection with the same client id (\(how)); "
            + "each client needs its own client id"
    }

    private func subscribed(_ mid: Int32, reasonCodes: [Int]) {
        if !acknowledge(mid, reasonCodes: reasonCodes) {
            let refused = reasonCodes.filter { $0 >= 0x80 }.count
            if refused > 0 {
                shared.withLock { $0.counters.subscriptionsRefused += refused }
                logger.error("MQTT resubscribe refused", metadata: ["filters refused": "\(refused)"])
            }
        }
    }

    /// An inbound PUBLISH: its PUBACK (QoS 1) is queued, not yet written; the message joins the loop's batch.
    private func received(_ message: mosquitto_message) {
        let payload =
            message.payloadlen > 0
            ? [UInt8](UnsafeRawBufferPointer(start: message.payload, count: Int(message.payloadlen))) : []
        batch.append(
            MQTTMessage(
                topic: String(cString: message.topic), payload: payload,
                qos: message.qos == 0 ? .atMostOnce : .atLeastOnce, retain: message.retain, packetID: Int(message.mid)))
    }

    /// Why a TLS connection without a client certificate may end before CONNACK, and what to do; empty otherwise.
    private var certificateHint: String {
        guard let tls = configuration.tls, tls.certificateFile == nil else { return "" }
        return "; a broker that requires client certificates (mosquitto's require_certificate) ends the TLS handshake "
            + "this way: give a certificate and its key (`muster serve --mqtt-cert-file FILE --mqtt-key-file FILE`)"
    }

    /// A disconnect code in words: an MQTT 5 reason code from the broker's DISCONNECT (≥ 0x80) or a libmosquitto
    /// error.
    static func disconnectText(_ rc: Int32) -> String {
        if rc >= 0x80 { return String(cString: mosquitto_reason_string(rc)) }
        return MQTTError.libraryText(rc)
    }
}
