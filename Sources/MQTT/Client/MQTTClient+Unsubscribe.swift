import CMosquitto

#if canImport(Glibc)
    import Glibc
#endif

extension MQTTClient {
    /// Unsubscribes from `filters` and returns when the broker's UNSUBACK came; they are then no longer subscribed
    /// again after a reconnect, nor listed in `subscriptions`.
    ///
    /// Throws `notConnected` (the filters stay listed: the broker may still hold them in the session) or `timedOut`.
    public func unsubscribe(_ filters: [String], timeout: Duration = .seconds(10)) async throws {
        guard !filters.isEmpty else { return }
        _ = try await awaitAcknowledgement(timeout: timeout, kind: .unsubscribe(filters: filters)) { _ in
            try unsubscribeNow(filters)
        }
        shared.withLock { state in state.subscriptions.removeAll { filters.contains($0) } }
    }

    /// Sends UNSUBSCRIBE for `filters` and returns its packet identifier. Any thread, with the handle alive.
    private func unsubscribeNow(_ filters: [String]) throws -> Int32 {
        var mid: Int32 = 0
        var cStrings = filters.map { strdup($0) }
        defer { cStrings.forEach { free($0) } }
        let rc = cStrings.withUnsafeMutableBufferPointer { pointers in
            pointers.baseAddress!.withMemoryRebound(to: UnsafeMutablePointer<CChar>?.self, capacity: filters.count) {
                mosquitto_unsubscribe_multiple(handle, &mid, Int32(filters.count), $0, nil)
            }
        }
        guard rc == MOSQ_ERR_SUCCESS.rawValue else {
            throw MQTTError(
                rc == MOSQ_ERR_NO_CONN.rawValue ? .notConnected : .library,
                "unsubscribe from \(filters.joined(separator: ", ")) on \(configuration.address) failed: "
                    + MQTTError.libraryText(rc))
        }
        return mid
    }
}
