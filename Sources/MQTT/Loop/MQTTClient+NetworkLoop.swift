import CMosquitto
import Dispatch
import Logging
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// The network loop, on the client's own thread: connect and reconnect, read a batch, hand it to the handler, then
/// write (the batch's PUBACKs and anything queued), then keepalive. See `MQTTClient` for what this guarantees.
extension MQTTClient {
    func runNetworkLoop() {
        var mustConnect = true
        var firstConnect = true
        while !isStopping {
            expireOverdueWaiters()
            if mustConnect || mosquitto_socket(handle) < 0 {
                if !firstConnect, !connectedOnce {
                    // The first connect ended before CONNACK: a TLS handshake failed, or the broker hung up.
                    failFirstConnect(
                        MQTTError(
                            .unreachable,
                            "the connection to the MQTT broker at \(configuration.address) ended before CONNACK: "
                                + (lastNetworkError ?? "closed")))
                    break
                }
                if !firstConnect, !waitBeforeReconnect() { break }
                refusal = nil
                let rc = firstConnect ? connectFirstTime() : mosquitto_reconnect(handle)
                let savedErrno = errno
                if rc != MOSQ_ERR_SUCCESS.rawValue {
                    let reason =
                        "cannot reach the MQTT broker at \(configuration.address): "
                        + MQTTError.libraryText(rc, errno: savedErrno)
                    if firstConnect {
                        failFirstConnect(MQTTError(.unreachable, reason))
                        break
                    }
                    connectFailed(reason)
                    continue
                }
                firstConnect = false
                mustConnect = false
            }
            waitForTraffic()
            if !handleBatch() {
                // The handler failed: drop the connection without writing its PUBACKs; reconnect after a backoff.
                _ = Glibc.shutdown(mosquitto_socket(handle), Int32(SHUT_RDWR))
                mustConnect = true
                continue
            }
            if mosquitto_socket(handle) >= 0 { _ = mosquitto_loop_write(handle, 1) }
            if mosquitto_socket(handle) >= 0 { _ = mosquitto_loop_misc(handle) }
        }
        finish()
    }

    var isStopping: Bool { shared.withLock { $0.phase != .running } }

    /// Polls the socket (for writing too when libmosquitto has bytes waiting) and the wake pipe for up to a second,
    /// so keepalive runs on time; then reads what arrived into `batch`.
    private func waitForTraffic() {
        let socket = mosquitto_socket(handle)
        guard socket >= 0 else { return }
        let events = Int16(POLLIN) | (mosquitto_want_write(handle) ? Int16(POLLOUT) : 0)
        var descriptors = [
            pollfd(fd: socket, events: events, revents: 0),
            pollfd(fd: wakePipe.readEnd, events: Int16(POLLIN), revents: 0),
        ]
        guard poll(&descriptors, 2, 1000) > 0 else { return }
        if descriptors[1].revents != 0 { wakePipe.drain() }
        guard descriptors[0].revents & Int16(POLLIN | POLLERR | POLLHUP) != 0 else { return }
        // One `mosquitto_loop_read` may read only one packet; read on while the socket has more, up to a batch.
        repeat {
            let rc = mosquitto_loop_read(handle, 1)
            guard rc == MOSQ_ERR_SUCCESS.rawValue else {
                lastNetworkError = MQTTError.libraryText(rc)
                return
            }
        } while batch.count < configuration.batchLimit && socketReadable()
    }

    private func socketReadable() -> Bool {
        let socket = mosquitto_socket(handle)
        guard socket >= 0 else { return false }
        var descriptor = pollfd(fd: socket, events: Int16(POLLIN), revents: 0)
        return poll(&descriptor, 1, 0) > 0 && descriptor.revents & Int16(POLLIN) != 0
    }

    /// Hands the collected batch to the handler and blocks this thread until it returned; false when it threw.
    private func handleBatch() -> Bool {
        guard !batch.isEmpty else { return true }
        let messages = batch
        batch = []
        shared.withLock { state in
            state.counters.messagesReceived += messages.count
            state.counters.batchesHandled += 1
        }
        let handler = handler
        let outcome = HandlerOutcome()
        let done = DispatchSemaphore(value: 0)
        Task {
            do { try await handler(messages) } catch { outcome.error.withLock { $0 = error } }
            done.signal()
        }
        done.wait()
        guard let error = outcome.error.withLock({ $0 }) else { return true }
        let reason = "the message handler failed, so \(messages.count) message(s) stay unacknowledged: \(error)"
        logger.error("MQTT batch not acknowledged", metadata: ["reason": "\(reason)"])
        shared.withLock { state in
            if state.connection.isConnected { state.counters.disconnects += 1 }
            if state.phase == .running { state.set(.reconnecting(reason: reason, attempt: failedAttempts)) }
        }
        return false
    }

    /// Sleeps the backoff of the failed attempts so far (interrupted by `shutdown()`); false when stopping.
    ///
    /// Connections the broker closed soon after accepting them count as failed attempts too: two clients with one
    /// client id, kicking each other out, back off instead of reconnecting at the first delay for ever.
    private func waitBeforeReconnect() -> Bool {
        let delay = min(
            configuration.maximumReconnectDelay,
            configuration.reconnectDelay * (1 << min(max(failedAttempts, shortConnections), 20)))
        let deadline = ContinuousClock.now + delay
        while !isStopping {
            let left = ContinuousClock.now.duration(to: deadline)
            guard left > .zero else { return true }
            var descriptor = pollfd(fd: wakePipe.readEnd, events: Int16(POLLIN), revents: 0)
            let milliseconds = left.components.seconds * 1000 + left.components.attoseconds / 1_000_000_000_000_000
            // A second at most, so publishes waiting meanwhile still time out on time.
            if poll(&descriptor, 1, Int32(min(max(1, milliseconds), 1000))) > 0 { wakePipe.drain() }
            expireOverdueWaiters()
        }
        return false
    }

    private func connectFailed(_ reason: String) {
        failedAttempts += 1
        shared.withLock { state in
            state.counters.connectsFailed += 1
            if state.phase == .running { state.set(.reconnecting(reason: reason, attempt: failedAttempts)) }
        }
        logger.warning("MQTT reconnect failed", metadata: ["reason": "\(reason)", "attempt": "\(failedAttempts)"])
    }

    private func failFirstConnect(_ error: MQTTError) {
        let waiter = shared.withLock { state -> CheckedContinuation<Void, any Error>? in
            state.counters.connectsFailed += 1
            let waiter = state.connectWaiter
            state.connectWaiter = nil
            return waiter
        }
        waiter?.resume(throwing: error)
    }

    /// Disconnects cleanly when connected, then frees the handle and wakes everyone waiting.
    private func finish() {
        if mosquitto_socket(handle) >= 0 {
            _ = mosquitto_disconnect_v5(handle, 0, nil)
            _ = mosquitto_loop_write(handle, 1)
        }
        let (waiters, connectWaiter, observers, exitWaiters) = shared.withLock { state in
            state.phase = .destroyed
            let reason = refusal ?? "shut down"
            state.set(.stopped(reason: reason))
            mosquitto_destroy(handle)
            let taken = (
                Array(state.waiters.values), state.connectWaiter, Array(state.observers.values), state.exitWaiters
            )
            state.waiters = [:]
            state.connectWaiter = nil
            state.observers = [:]
            state.exitWaiters = []
            return taken
        }
        for waiter in waiters {
            waiter.continuation.resume(
                throwing: MQTTError(.stopped, "the MQTT client for \(configuration.address) was shut down"))
        }
        connectWaiter?.resume(
            throwing: MQTTError(.stopped, "the MQTT client for \(configuration.address) was shut down"))
        for observer in observers { observer.finish() }
        for waiter in exitWaiters { waiter.resume() }
        logger.info("MQTT client stopped", metadata: ["broker": "\(configuration.address)"])
    }
}

/// What the handler of one batch ended with, passed from its task to the blocked loop thread.
private final class HandlerOutcome: Sendable {
    let error = Mutex<(any Error)?>(nil)
}
