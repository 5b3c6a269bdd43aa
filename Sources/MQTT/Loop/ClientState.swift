/// What the network loop and the callers of an `MQTTClient` share, behind one lock.
struct ClientState {
    /// Where the client's life stands; the mosquitto handle may be used only while `running` or `stopping`.
    enum Phase { case new, running, stopping, destroyed }

    var phase = Phase.new
    var connection = MQTTConnectionState.connecting
    var counters = MQTTCounters()
    /// Publishes, subscriptions and unsubscriptions awaiting PUBACK, SUBACK or UNSUBACK, by packet identifier (one counter for both).
    var waiters: [Int32: Waiter] = [:]
    /// When the network loop last looked for waiters past their deadline.
    var lastExpiryCheck = ContinuousClock.now
    /// Topic filters subscribed, in order, to subscribe again when the broker lost the session.
    var subscriptions: [String] = []
    /// The first `connect()`, until CONNACK or failure.
    var connectWaiter: CheckedContinuation<Void, any Error>?
    var observers: [Int: AsyncStream<MQTTConnectionState>.Continuation] = [:]
    var nextObserver = 0
    /// `shutdown()` calls waiting for the loop thread to end.
    var exitWaiters: [CheckedContinuation<Void, Never>] = []

    /// Records a new connection state and tells the observers.
    mutating func set(_ state: MQTTConnectionState) {
        guard state != connection else { return }
        connection = state
        for observer in observers.values { observer.yield(state) }
    }
}

/// A publish, subscribe or unsubscribe waiting for the broker's acknowledgement.
struct Waiter {
    enum Kind {
        case publish(topic: String)
        case subscribe(filters: [String])
        case unsubscribe(filters: [String])
    }

    let kind: Kind
    /// Resumed with the granted QoS values (subscribe) or nothing (publish, unsubscribe).
    let continuation: CheckedContinuation<[Int], any Error>
    /// When it fails for want of an answer (the network loop looks, at least once a second).
    let deadline: ContinuousClock.Instant
    let timeout: Duration
}
