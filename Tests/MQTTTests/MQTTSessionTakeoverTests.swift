import MQTT
import MQTTTesting
import Synchronization
import Testing

@Suite(.serialized) struct MQTTSessionTakeoverTests {
    /// Two clients with one client id take the session from each other (mosquitto 2.0.11 closes the older connection
    /// without a DISCONNECT, and each reconnects at once): the state and the counters say the session was taken over,
    /// naming the client id, instead of a bare "connection lost".
    @Test func twoClientsWithOneClientIdAreToldTheSessionWasTakenOver() async throws {
        try await withMQTTBroker(users: testUsers) { broker in
            let configuration = broker.configuration(user: "muster", clientID: "muster-shared")
            let first = try MQTTClient(configuration) { _ in }
            try await first.connect()
            let second = try MQTTClient(configuration) { _ in }
            try await second.connect()
            let reasons = ReasonLog()
            let watchers = [first, second].map { client in
                Task {
                    for await state in client.stateUpdates() {
                        if case .reconnecting(let reason, _) = state { reasons.add(reason) }
                    }
                }
            }
            let deadline = ContinuousClock.now + .seconds(60)
            // Waits for the state a watcher sees (the counter alone may move before the state reaches it, and a
            // shutdown right after could replace the state before it is read).
            while !reasons.all.contains(where: { $0.hasPrefix("session taken over") }) {
                try #require(ContinuousClock.now < deadline, "no takeover seen: \(reasons.all)")
                try await Task.sleep(for: .milliseconds(50))
            }
            #expect(first.counters.sessionsTakenOver + second.counters.sessionsTakenOver > 0)
            await first.shutdown()
            await second.shutdown()
            for watcher in watchers { await watcher.value }
            let takenOver = reasons.all.filter { $0.hasPrefix("session taken over") }
            #expect(takenOver.allSatisfy { $0.contains(#"client id "muster-shared""#) }, "\(takenOver)")
        }
    }

    /// A broker restart is one lost connection, not a takeover.
    @Test func aBrokerRestartIsNoTakeover() async throws {
        try await withMQTTBroker(users: testUsers) { broker in
            let client = try MQTTClient(broker.configuration(user: "muster", clientID: "muster")) { _ in }
            try await client.connect()
            let states = ReasonLog()
            let watcher = Task { for await state in client.stateUpdates() { states.add("\(state)") } }
            try await broker.restart()
            let deadline = ContinuousClock.now + .seconds(60)
            while !(states.all.contains { $0.hasPrefix("reconnecting") } && client.state.isConnected) {
                try #require(ContinuousClock.now < deadline, "not connected again: \(states.all)")
                try await Task.sleep(for: .milliseconds(50))
            }
            #expect(client.counters.disconnects == 1)
            #expect(client.counters.sessionsTakenOver == 0)
            #expect(!states.all.contains { $0.contains("session taken over") }, "\(states.all)")
            await client.shutdown()
            await watcher.value
        }
    }
}

/// What the watchers of connection states saw.
private final class ReasonLog: Sendable {
    private let reasons = Mutex<[String]>([])
    func add(_ reason: String) { reasons.withLock { $0.append(reason) } }
    var all: [String] { reasons.withLock { $0 } }
}
