import CMosquitto

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
        try sendFilters(filters, "unsubscribe from") { mid, count, strings in
            mosquitto_unsubscribe_multiple(handle, mid, count, strings, nil)
        }
    }
}
