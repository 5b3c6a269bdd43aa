import EventLog
import EventLogTesting
import Foundation
import NATS
import NATSTesting
import Replication
import Testing

/// A primary on three nats-servers with a stream of three replicas: writes go on while one server is down, are
/// refused as unavailable while two are, and resume once they are back — nothing answered is lost.
@Suite(.serialized) struct QuorumTests {
    /// Appends one event as a client would write: again after `unavailable`, for at most `timeout`.
    static func write(_ log: EventLog, _ namespace: String, _ n: Int, timeout: Duration) async throws -> UInt64 {
        try await eventually("write \(n) to be taken", timeout: timeout) { () -> UInt64? in
            do {
                return try await log.append(
                    AppendRequest(namespace: namespace, stream: "s", events: [.sample(n: n)])
                ).positions.last
            } catch let error as ReplicationError where error.code == .unavailable {
                return nil
            }
        }
    }

    @Test func writesGoOnWithOneServerDownAreRefusedWithTwoAndResumeWhenTheyReturn() async throws {
        let cluster = try await NATSCluster(servers: 3)
        let connection = try await NATSConnection.connect(
            cluster.configuration(name: "quorum", requestTimeout: .seconds(2)))
        let namespace = uniqueNamespace()
        let log = try TestLog("primary").open()
        let leases = try await connection.keyValueBucket(NamespaceLease.configuration(time: .seconds(6), replicas: 3))
        let part = ReplicatedNamespace(
            log: log, namespace: namespace, connection: connection, leases: leases,
            options: .init(
                holder: .init(node: "a", url: "http://a.invalid"), leaseTime: .seconds(6),
                acknowledgement: .replicated(timeout: .seconds(3)), replicas: 3))
        let running = Task { await part.run() }
        try await eventually("a to be the primary") { part.role == .primary ? true : nil }
        var answered: [UInt64] = [try await Self.write(log, namespace, 1, timeout: .seconds(60))]

        await cluster.kill(server: 2)
        answered.append(try await Self.write(log, namespace, 2, timeout: .seconds(60)))

        await cluster.kill(server: 1)
        let refused = try await eventually("a write to be refused", timeout: .seconds(60)) { () -> ReplicationError? in
            do {
                answered.append(
                    try await log.append(AppendRequest(namespace: namespace, stream: "s", events: [.sample(n: 3)]))
                        .positions.last!)
                return nil
            } catch let error as ReplicationError {
                return error
            }
        }
        #expect(refused.code == .unavailable, "\(refused)")
        #expect(try log.read { try $0.event(at: 1) } != nil)  // reads go on

        try await cluster.restart(server: 1)
        try await cluster.restart(server: 2)
        answered.append(try await Self.write(log, namespace, 4, timeout: .seconds(120)))

        // Every answered write is in the stream, at its position; the stream holds exactly the log.
        try await eventually("the stream to hold the whole log", timeout: .seconds(60)) {
            try await connection.streamInfo(part.stream.name).lastSequence == log.head ? true : nil
        }
        for position in answered {
            let message = try #require(try await connection.message(stream: part.stream.name, sequence: position))
            #expect(message.headers["Nats-Msg-Id"] == (try log.read { try $0.event(at: position) })?.id.uuidString)
        }
        running.cancel()
        await running.value
        await connection.close()
        await cluster.stopAll()
    }
}
