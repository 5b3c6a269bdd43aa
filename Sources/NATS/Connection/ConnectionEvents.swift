import CNATS
import Logging
import Synchronization

/// A connection's state as libnats' callbacks report it, and the streams that watch it.
///
/// libnats calls the callbacks on its own thread, one at a time, with this object as the closure pointer: it holds
/// one retain for libnats from `connect` until the "closed" callback, which libnats makes once per connection and
/// last (after the "disconnected" one).
final class ConnectionEvents: Sendable {
    private struct State {
        var connection = NATSConnectionState.connected
        /// Set by `close()`: the "disconnected" callback of a close is no loss.
        var closing = false
        var reconnects = 0
        var nextObserver = 0
        var observers: [Int: AsyncStream<NATSConnectionState>.Continuation] = [:]
    }

    private let state = Mutex(State())
    let logger: Logger
    let address: String

    init(logger: Logger, address: String) {
        self.logger = logger
        self.address = address
    }

    var connection: NATSConnectionState { state.withLock { $0.connection } }

    var reconnects: Int { state.withLock { $0.reconnects } }

    /// The current state, then each change until the connection is closed.
    func updates() -> AsyncStream<NATSConnectionState> {
        let (stream, continuation) = AsyncStream.makeStream(of: NATSConnectionState.self)
        let id = state.withLock { state in
            let id = state.nextObserver
            state.nextObserver += 1
            continuation.yield(state.connection)
            if state.connection == .closed {
                continuation.finish()
            } else {
                state.observers[id] = continuation
            }
            return id
        }
        continuation.onTermination = { [weak self] _ in
            _ = self?.state.withLock { $0.observers.removeValue(forKey: id) }
        }
        return stream
    }

    /// Records `new` and tells the observers; after `.closed`, nothing changes any more.
    func set(_ new: NATSConnectionState) {
        let observers = state.withLock { state -> [AsyncStream<NATSConnectionState>.Continuation] in
            guard state.connection != .closed, state.connection != new else { return [] }
            if state.closing && new != .closed { return [] }
            if state.connection == .reconnecting && new == .connected { state.reconnects += 1 }
            state.connection = new
            let observers = Array(state.observers.values)
            if new == .closed { state.observers = [:] }
            return observers
        }
        for observer in observers {
            observer.yield(new)
            if new == .closed { observer.finish() }
        }
    }

    /// Tells the events that the owner closes the connection: what libnats reports from now on is not a loss.
    func closing() {
        state.withLock { $0.closing = true }
    }

    /// Sets the callbacks on `options`, taking the retain that the "closed" callback gives back. When the connect
    /// then fails, no callback comes: the caller calls `releaseUnused()`.
    func install(on options: OpaquePointer) throws {
        let closure = Unmanaged.passRetained(self).toOpaque()
        let calls: [(natsStatus, String)] = [
            (natsOptions_SetDisconnectedCB(options, Self.disconnected, closure), "natsOptions_SetDisconnectedCB"),
            (natsOptions_SetReconnectedCB(options, Self.reconnected, closure), "natsOptions_SetReconnectedCB"),
            (natsOptions_SetClosedCB(options, Self.closed, closure), "natsOptions_SetClosedCB"),
            (natsOptions_SetErrorHandler(options, Self.asynchronousError, closure), "natsOptions_SetErrorHandler"),
        ]
        for (status, call) in calls where status != NATS_OK {
            Unmanaged<ConnectionEvents>.fromOpaque(closure).release()
            throw NATSError("setting the connection's callbacks", call: call, status: status)
        }
    }

    /// Gives back the retain `install(on:)` took, for a connect that failed.
    func releaseUnused() {
        Unmanaged.passUnretained(self).release()
    }

    private static let disconnected: natsConnectionHandler = { _, closure in
        guard let closure else { return }
        let events = Unmanaged<ConnectionEvents>.fromOpaque(closure).takeUnretainedValue()
        events.logger.warning("lost the connection to NATS; reconnecting", metadata: ["nats": "\(events.address)"])
        events.set(.reconnecting)
    }

    private static let reconnected: natsConnectionHandler = { _, closure in
        guard let closure else { return }
        let events = Unmanaged<ConnectionEvents>.fromOpaque(closure).takeUnretainedValue()
        events.logger.info("reconnected to NATS", metadata: ["nats": "\(events.address)"])
        events.set(.connected)
    }

    private static let closed: natsConnectionHandler = { _, closure in
        guard let closure else { return }
        let events = Unmanaged<ConnectionEvents>.fromOpaque(closure).takeRetainedValue()
        events.set(.closed)
    }

    /// Errors no call returns: a slow consumer dropping messages, missed heartbeats, a failed recreation of an
    /// ordered consumer (which libnats tries again by itself).
    private static let asynchronousError: natsErrHandler = { _, _, status, closure in
        guard let closure else { return }
        let events = Unmanaged<ConnectionEvents>.fromOpaque(closure).takeUnretainedValue()
        let text = String(cString: natsStatus_GetText(status))
        events.logger.warning("NATS reported an error: \(text)", metadata: ["nats": "\(events.address)"])
    }
}
