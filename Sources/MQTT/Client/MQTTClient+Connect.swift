import CMosquitto
import Foundation

extension MQTTClient {
    /// Starts the network loop and waits for the broker's CONNACK.
    ///
    /// Throws `refused` when the broker refused (the message says why: bad user name or password, not authorised…),
    /// `unreachable` when the host:port could not be reached, `timedOut` without CONNACK within `timeout`. After a
    /// failed first connect the client is stopped; make a new one to try again. Once connected, the client reconnects
    /// by itself after any loss, with the configured backoff, and subscribes again when the broker lost the session.
    public func connect(timeout: Duration = .seconds(10)) async throws {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            let started = shared.withLock { state -> Bool in
                guard state.phase == .new else { return false }
                state.phase = .running
                state.connectWaiter = continuation
                return true
            }
            guard started else {
                continuation.resume(
                    throwing: MQTTError(.configuration, "connect() was called on a client already connected or stopped")
                )
                return
            }
            let thread = Thread { [self] in runNetworkLoop() }
            thread.name = "mqtt \(configuration.clientID)"
            thread.start()
            Task { [weak self] in
                try? await Task.sleep(for: timeout)
                self?.connectTimedOut(after: timeout)
            }
        }
    }

    /// Disconnects cleanly (PUBACKs of handled batches and a DISCONNECT are written first), ends the loop thread and
    /// frees the handle. Waits for a running handler to return. Pending publishes fail with `stopped`.
    public func shutdown() async {
        let mustWait = shared.withLock { state -> Bool in
            switch state.phase {
            case .new:
                state.phase = .destroyed
                state.set(.stopped(reason: "shut down"))
                return false
            case .running:
                state.phase = .stopping
                return true
            case .stopping: return true
            case .destroyed: return false
            }
        }
        guard mustWait else { return }
        wakePipe.wake()
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let ended = shared.withLock { state -> Bool in
                if state.phase == .destroyed { return true }
                state.exitWaiters.append(continuation)
                return false
            }
            if ended { continuation.resume() }
        }
    }

    /// Fails the first connect when CONNACK did not come in time, and stops the loop.
    private func connectTimedOut(after timeout: Duration) {
        let waiter = shared.withLock { state -> CheckedContinuation<Void, any Error>? in
            guard let waiter = state.connectWaiter else { return nil }
            state.connectWaiter = nil
            if state.phase == .running { state.phase = .stopping }
            return waiter
        }
        guard let waiter else { return }
        wakePipe.wake()
        waiter.resume(
            throwing: MQTTError(
                .timedOut, "no CONNACK from the MQTT broker at \(configuration.address) within \(timeout)"))
    }

    /// The first connect: the CONNECT properties of MQTT 5 (session expiry for a persistent session) and the
    /// blocking TCP (and TLS) connect. Runs on the loop thread.
    func connectFirstTime() -> Int32 {
        var properties: OpaquePointer? = nil
        defer { mosquitto_property_free_all(&properties) }
        if configuration.protocolVersion == .v5, case .persistent(let expiry) = configuration.session {
            let seconds = expiry.map { UInt32(clamping: $0.components.seconds) } ?? UInt32.max
            let rc = mosquitto_property_add_int32(
                &properties, Int32(MQTT_PROP_SESSION_EXPIRY_INTERVAL.rawValue), seconds)
            if rc != MOSQ_ERR_SUCCESS.rawValue { return rc }
        }
        return mosquitto_connect_bind_v5(
            handle, configuration.host, Int32(configuration.port), Int32(configuration.keepalive), nil, properties)
    }
}
