import MQTT
import Synchronization

/// The messages a handler received, in order, with a way to wait until enough arrived. Pass `record` as (or call it
/// from) an `MQTTClient`'s handler.
public final class MQTTInbox: Sendable {
    private let state = Mutex(State())

    private struct State {
        var messages: [MQTTMessage] = []
        var waiters: [(count: Int, continuation: CheckedContinuation<Bool, Never>)] = []
    }

    public init() {}

    /// Adds a batch and wakes the waits it satisfies.
    public func record(_ batch: [MQTTMessage]) {
        let ready = state.withLock { state in
            state.messages += batch
            let count = state.messages.count
            let ready = state.waiters.filter { $0.count <= count }.map(\.continuation)
            state.waiters.removeAll { $0.count <= count }
            return ready
        }
        for waiter in ready { waiter.resume(returning: true) }
    }

    /// Everything received so far, in order.
    public var messages: [MQTTMessage] { state.withLock { $0.messages } }

    /// The payloads as UTF-8 text, in order.
    public var texts: [String] { messages.map { String(decoding: $0.payload, as: UTF8.self) } }

    /// Waits until at least `count` messages arrived in all and returns them all; throws after `timeout`.
    @discardableResult
    public func wait(for count: Int, timeout: Duration = .seconds(10)) async throws -> [MQTTMessage] {
        let arrived = try await withThrowingTaskGroup(of: Bool.self) { group in
            group.addTask {
                await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
                    let ready = self.state.withLock { state in
                        if state.messages.count >= count { return true }
                        state.waiters.append((count, continuation))
                        return false
                    }
                    if ready { continuation.resume(returning: true) }
                }
            }
            group.addTask {
                try await Task.sleep(for: timeout)
                return false
            }
            let first = try await group.next() ?? false
            if !first { self.releaseWaiters() }
            group.cancelAll()
            return first
        }
        let messages = self.messages
        guard arrived else {
            throw MQTTBrokerError(
                description: "waited \(timeout) for \(count) messages, got \(messages.count): "
                    + messages.map { String(decoding: $0.payload, as: UTF8.self) }.joined(separator: " | "))
        }
        return messages
    }

    /// Ends the waits of a timed-out `wait` so its task group can finish.
    private func releaseWaiters() {
        let waiters = state.withLock { state in
            defer { state.waiters = [] }
            return state.waiters.map(\.continuation)
        }
        for waiter in waiters { waiter.resume(returning: false) }
    }
}
