import CMosquitto

#if canImport(Glibc)
    import Glibc
#endif

extension MQTTClient {
    /// Publishes `payload` to `topic` and returns when the broker acknowledged it (QoS 1: PUBACK) or, for QoS 0,
    /// once it is queued for the socket.
    ///
    /// Throws at once `notConnected` while the client is not connected (it may be reconnecting); `publishRefused`
    /// when an MQTT 5 broker answered with a failure reason (0x87 not authorised for a topic the ACL denies — a
    /// 3.1.1 broker drops such a message and acknowledges it all the same); `timedOut` without PUBACK within
    /// `timeout`. After `timedOut` libmosquitto keeps the message and sends it again on reconnect: it may still
    /// arrive.
    public func publish(
        topic: String, payload: [UInt8], qos: MQTTQoS = .atLeastOnce, retain: Bool = false,
        timeout: Duration = .seconds(10)
    ) async throws {
        _ = try await awaitAcknowledgement(timeout: timeout, kind: .publish(topic: topic)) { state in
            var mid: Int32 = 0
            let rc = payload.withUnsafeBytes { bytes in
                mosquitto_publish_v5(
                    handle, &mid, topic, Int32(bytes.count), bytes.baseAddress, Int32(qos.rawValue), retain, nil)
            }
            guard rc == MOSQ_ERR_SUCCESS.rawValue else {
                throw MQTTError(
                    rc == MOSQ_ERR_NO_CONN.rawValue ? .notConnected : .library,
                    "publish to \(topic) on \(configuration.address) failed: \(MQTTError.libraryText(rc))")
            }
            if qos == .atMostOnce {
                state.counters.messagesPublished += 1
                return nil
            }
            return mid
        }
    }

    /// Subscribes to `filters` with QoS 1 and returns when the broker's SUBACK granted them all; the client
    /// subscribes again by itself after a reconnect that lost the session.
    ///
    /// Throws `subscribeRefused` naming the filters the broker refused (ACL or invalid filter; those are not kept),
    /// `notConnected`, or `timedOut`.
    public func subscribe(_ filters: [String], timeout: Duration = .seconds(10)) async throws {
        guard !filters.isEmpty else { return }
        let granted = try await awaitAcknowledgement(timeout: timeout, kind: .subscribe(filters: filters)) { _ in
            try subscribeNow(filters)
        }
        let refused = zip(filters, granted).filter { $0.1 >= 0x80 }
        let accepted = zip(filters, granted).filter { $0.1 < 0x80 }.map(\.0)
        shared.withLock { state in
            for filter in accepted where !state.subscriptions.contains(filter) { state.subscriptions.append(filter) }
            state.counters.subscriptionsRefused += refused.count
        }
        if !refused.isEmpty {
            let names = refused.map { "\($0.0) (\(MQTTError.reasonText($0.1)))" }.joined(separator: ", ")
            throw MQTTError(
                .subscribeRefused, "the broker at \(configuration.address) refused the subscription to \(names)",
                reasonCode: refused[0].1)
        }
    }

    /// Sends SUBSCRIBE for `filters` with QoS 1 and returns its packet identifier. Any thread, with the handle alive.
    func subscribeNow(_ filters: [String]) throws -> Int32 {
        try sendFilters(filters, "subscribe to") { mid, count, strings in
            mosquitto_subscribe_multiple(handle, mid, count, strings, 1, 0, nil)
        }
    }

    /// Calls `send` (`mosquitto_subscribe_multiple` or `_unsubscribe_multiple`) with `filters` as C strings and
    /// returns the packet identifier it set; throws naming what was asked (`subscribe to` …) when it fails.
    func sendFilters(
        _ filters: [String], _ asked: String,
        _ send: (UnsafeMutablePointer<Int32>, Int32, UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> Int32
    ) throws -> Int32 {
        var mid: Int32 = 0
        var cStrings = filters.map { strdup($0) }
        defer { cStrings.forEach { free($0) } }
        let rc = cStrings.withUnsafeMutableBufferPointer { pointers in
            pointers.baseAddress!.withMemoryRebound(to: UnsafeMutablePointer<CChar>?.self, capacity: filters.count) {
                send(&mid, Int32(filters.count), $0)
            }
        }
        guard rc == MOSQ_ERR_SUCCESS.rawValue else {
            throw MQTTError(
                rc == MOSQ_ERR_NO_CONN.rawValue ? .notConnected : .library,
                "\(asked) \(filters.joined(separator: ", ")) on \(configuration.address) failed: "
                    + MQTTError.libraryText(rc))
        }
        return mid
    }

    /// Runs `send` under the lock while connected, registers a waiter for the packet identifier it returns (nil: no
    /// acknowledgement expected), wakes the loop to write, and waits for the acknowledgement or `timeout`.
    func awaitAcknowledgement(
        timeout: Duration, kind: Waiter.Kind, _ send: (inout ClientState) throws -> Int32?
    ) async throws -> [Int] {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<[Int], any Error>) in
            let outcome = shared.withLock { state -> Result<[Int], any Error>? in
                guard state.phase == .running, state.connection.isConnected else {
                    if case .publish = kind { state.counters.publishesNotConnected += 1 }
                    return .failure(
                        MQTTError(
                            .notConnected,
                            "not connected to the MQTT broker at \(configuration.address): \(state.connection)"))
                }
                do {
                    guard let mid = try send(&state) else { return .success([]) }
                    // No timer task per publish: the network loop fails waiters past their deadline.
                    state.waiters[mid] = Waiter(
                        kind: kind, continuation: continuation, deadline: .now + timeout, timeout: timeout)
                    return nil
                } catch {
                    return .failure(error)
                }
            }
            if let outcome {
                continuation.resume(with: outcome)
            } else {
                wakePipe.wake()
            }
        }
    }

    /// Fails the waiters whose acknowledgement did not come in time; called by the network loop, which looks at
    /// most ten times a second and at least once a second (its longest wait) — except while a batch's handler runs,
    /// when it looks right after (no acknowledgement can be read meanwhile either).
    func expireOverdueWaiters(now: ContinuousClock.Instant = .now) {
        let overdue = shared.withLock { state -> [Waiter] in
            guard now - state.lastExpiryCheck >= .milliseconds(100) else { return [] }
            state.lastExpiryCheck = now
            let late = state.waiters.filter { $0.value.deadline <= now }
            for (mid, waiter) in late {
                state.waiters[mid] = nil
                if case .publish = waiter.kind { state.counters.publishesTimedOut += 1 }
            }
            return Array(late.values)
        }
        for waiter in overdue {
            let what =
                switch waiter.kind {
                case .publish(let topic): "PUBACK for the publish to \(topic)"
                case .subscribe(let filters): "SUBACK for the subscription to \(filters.joined(separator: ", "))"
                case .unsubscribe(let filters):
                    "UNSUBACK for the unsubscription from \(filters.joined(separator: ", "))"
                }
            waiter.continuation.resume(
                throwing: MQTTError(
                    .timedOut,
                    "no \(what) from the MQTT broker at \(configuration.address) within \(waiter.timeout)"))
        }
    }

    /// Resolves the waiter of `mid` with the broker's answer; called from the loop thread's callbacks. False when
    /// nobody waits for `mid` (a subscription renewed after a reconnect, or a waiter that timed out).
    @discardableResult
    func acknowledge(_ mid: Int32, reasonCodes: [Int]) -> Bool {
        let waiter = shared.withLock { state -> Waiter? in
            guard let waiter = state.waiters.removeValue(forKey: mid) else { return nil }
            if case .publish = waiter.kind {
                if let code = reasonCodes.first, code >= 0x80 {
                    state.counters.publishesRefused += 1
                } else {
                    state.counters.messagesPublished += 1
                }
            }
            return waiter
        }
        guard let waiter else { return false }
        switch waiter.kind {
        case .publish(let topic):
            if let code = reasonCodes.first, code >= 0x80 {
                waiter.continuation.resume(
                    throwing: MQTTError(
                        .publishRefused,
                        "the broker at \(configuration.address) refused the publish to \(topic): "
                            + "\(MQTTError.reasonText(code)) (0x\(String(code, radix: 16)))",
                        reasonCode: code))
            } else {
                waiter.continuation.resume(returning: [])
            }
        case .subscribe, .unsubscribe:
            waiter.continuation.resume(returning: reasonCodes)
        }
        return true
    }
}
