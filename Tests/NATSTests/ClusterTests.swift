import EventLogTesting
import Foundation
import NATS
import NATSTesting
import Testing

/// A stream with three replicas on three servers: what publishing does as servers die and come back.
@Suite(.serialized, .natsServers(3)) struct ClusterTests {
    @Test func anR3StreamTakesPublishesWithOneServerDownRefusesThemAsUnavailableWithTwoAndResumesAfterTheirRestart()
        async throws
    {
        try await withConnection(requestTimeout: .seconds(2)) { connection, cluster in
            let name = uniqueName("REPLICATED")
            let subject = "\(name).events"
            let created = try await connection.createOrUpdateStream(
                StreamConfiguration(name: name, subjects: ["\(name).>"], replicas: 3))
            #expect(created.cluster?.replicas.count == 2, "\(String(describing: created.cluster))")
            var next = UInt64(0)
            func publish(_ timeout: Duration? = nil) async throws -> PublishAcknowledgement {
                try await connection.publish(
                    subject: subject, data: .utf8("event \(next + 1)"), messageID: "\(name)-\(next + 1)",
                    expectedLastSequence: next, timeout: timeout)
            }
            #expect(try await publish().sequence == 1)
            next = 1
            let wrong = await #expect(throws: NATSError.self) {
                try await connection.publish(subject: subject, data: .utf8("stale"), expectedLastSequence: 0)
            }
            #expect(wrong?.code == .wrongLastSequence, "\(String(describing: wrong))")

            // One follower down: the other two still make a majority.
            let leader = try #require(try await connection.streamInfo(name).cluster?.leader)
            let servers = cluster.servers.indices
            let follower = try #require(servers.first { cluster.servers[$0].name != leader })
            await cluster.kill(server: follower)
            try await waitUntilConnected(connection, avoiding: [cluster.servers[follower].url])
            #expect(try await publish().sequence == 2)
            next = 2

            // The leader down too: one server of three, no quorum. Unavailable, not a wrong sequence, and soon.
            let leaderIndex = try #require(servers.first { cluster.servers[$0].name == leader })
            await cluster.kill(server: leaderIndex)
            try await waitUntilConnected(
                connection, avoiding: [cluster.servers[follower].url, cluster.servers[leaderIndex].url])
            let started = ContinuousClock.now
            let refused = await #expect(throws: NATSError.self) { try await publish(.seconds(2)) }
            #expect(refused?.code == .unavailable, "\(String(describing: refused))")
            #expect(ContinuousClock.now - started < .seconds(6))

            // Both back: publishing resumes with the same fence; a publish of the outage that was stored after all
            // comes back as a duplicate of its ID. It takes two elections, the cluster's meta leader's and then the
            // stream's, of 4-9 s each in nats-server 2.9 (raft.go): 4-26 s seen.
            try await cluster.restart(server: follower)
            try await cluster.restart(server: leaderIndex)
            let resumed = try await eventually("a publish after the restart", timeout: .seconds(60)) {
                do {
                    return try await publish()
                } catch let error as NATSError where error.code != .unavailable {
                    throw WaitFailure("a publish after the restart failed, and not as unavailable: \(error)")
                }
            }
            #expect(resumed.sequence == 3)
            next = 3
            #expect(try await publish().sequence == 4)
            let info = try await connection.streamInfo(name)
            #expect(info.lastSequence == 4)
            #expect(info.messages == 4)
            // The restarted servers catch up: the leader reports both followers current again.
            let caughtUp = try await eventually("the followers to catch up", timeout: .seconds(20)) {
                () -> StreamCluster? in
                let cluster = try await connection.streamInfo(name).cluster
                let current = cluster?.replicas.count == 2 && cluster?.replicas.allSatisfy { $0.current } == true
                return current ? cluster : nil
            }
            #expect(Set(caughtUp.replicas.map(\.name) + [caughtUp.leader ?? ""]) == ["s1", "s2", "s3"])
        }
    }

    /// Waits until the connection is connected to a server other than those in `avoiding` (it reconnects by itself
    /// when its server was killed).
    private func waitUntilConnected(_ connection: NATSConnection, avoiding urls: [String]) async throws {
        try await eventually("the connection to reach a live server", timeout: .seconds(60)) { () -> Bool? in
            guard connection.state == .connected, let server = connection.connectedServer else { return nil }
            return urls.contains(server) ? nil : true
        }
    }
}
