import EventLog
import EventLogTesting
import Foundation
import NATS
import NATSTesting
import Replication
import Testing

/// One nats-server for a test, with a connection to it; stopped after the body, also when it throws.
func withNATS(
    requestTimeout: Duration = .seconds(5), _ body: (NATSCluster, NATSConnection) async throws -> Void
) async throws {
    let cluster = try await NATSCluster(servers: 1)
    do {
        let connection = try await NATSConnection.connect(
            cluster.configuration(name: "replication-test", requestTimeout: requestTimeout))
        do {
            try await body(cluster, connection)
        } catch {
            await connection.close()
            throw error
        }
        await connection.close()
    } catch {
        await cluster.stopAll()
        throw error
    }
    await cluster.stopAll()
}

/// Runs `service` (a publisher's or follower's `run()`) in a task for the body, cancelled and awaited after it.
@discardableResult
func running<T>(_ service: @escaping @Sendable () async -> Void, _ body: () async throws -> T) async throws -> T {
    let task = Task { await service() }
    do {
        let value = try await body()
        task.cancel()
        await task.value
        return value
    } catch {
        task.cancel()
        await task.value
        throw error
    }
}

/// A namespace no other test uses.
func uniqueNamespace() -> String { "ns-\(UUID().uuidString.prefix(8).lowercased())" }

extension EventLog {
    /// Every event as stored, in position order.
    func allStored() throws -> [StoredEvent] {
        try read { try $0.storedEvents(from: 1, limit: Int.max) }
    }

    /// Appends `count` events to `streams` streams in commits of one to three.
    func appendSamples(_ count: Int, namespace: String, streams: Int = 3, from start: Int = 0) async throws {
        var n = start
        while n < start + count {
            let size = min(n % 3 + 1, start + count - n)
            try await append(
                AppendRequest(
                    namespace: namespace, stream: "s\(n % streams)",
                    events: (0..<size).map { .sample(n % 2 == 0 ? "Even" : "Odd", n: n + $0) }))
            n += size
        }
    }
}
