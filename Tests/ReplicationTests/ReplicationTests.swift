import EventLog
import EventLogTesting
import Foundation
import NATS
import NATSTesting
import Replication
import Testing

/// A namespace's log published to its stream on the primary and followed into a replica's log: the same events at the
/// same positions; fenced when another node wrote; writes acknowledged once replicated.
@Suite(.serialized) struct ReplicationTests {
    @Test func aReplicaFollowingTheStreamHoldsThePrimarysEventsAtThePrimarysPositions() async throws {
        try await withNATS { _, connection in
            let namespace = uniqueNamespace()
            let primary = try TestLog("primary").open()
            let replica = try TestLog("replica").open()
            let publisher = LogPublisher(log: primary, namespace: namespace, connection: connection, replicas: 1)
            let follower = LogFollower(log: replica, namespace: namespace, connection: connection)
            try await primary.appendSamples(120, namespace: namespace)  // before the publisher starts
            try await running(publisher.run) {
                try await running(follower.run) {
                    try await primary.appendSamples(180, namespace: namespace, from: 120)  // while it runs
                    try await eventually("the replica to reach position 300") { replica.head == 300 ? true : nil }
                }
            }
            #expect(try replica.allStored() == primary.allStored())
            #expect(
                try replica.events(EventQuery(namespace: namespace, type: "Odd"))
                    == primary.events(EventQuery(namespace: namespace, type: "Odd")))
            let info = try await connection.streamInfo(publisher.stream.name)
            #expect(info.lastSequence == 300 && info.messages == 300)
            let fifth = try #require(try await connection.message(stream: publisher.stream.name, sequence: 5))
            #expect(fifth.headers["Nats-Msg-Id"] == (try primary.read { try $0.event(at: 5) })?.id.uuidString)
            #expect(try primary.read { try $0.replicatedThrough } == 300)
        }
    }

    @Test func aWriteAcknowledgedOnceReplicatedIsInTheStreamWhenItIsAnswered() async throws {
        try await withNATS { _, connection in
            let namespace = uniqueNamespace()
            let primary = try TestLog("primary").open()
            let publisher = LogPublisher(log: primary, namespace: namespace, connection: connection, replicas: 1)
            primary.guardWrites(
                with: PrimaryWrites(publisher: publisher, acknowledgement: .replicated(timeout: .seconds(10))))
            try await running(publisher.run) {
                for n in 1...20 {
                    let result = try await primary.append(
                        AppendRequest(namespace: namespace, stream: "s", events: [.sample(n: n)]))
                    #expect(publisher.published >= result.positions.last!)
                    let info = try await connection.streamInfo(publisher.stream.name)
                    #expect(info.lastSequence >= result.positions.last!)
                }
            }
        }
    }

    @Test func aPrimaryWhoseStreamHoldsAnotherNodesEventsIsFencedAndTakesNoWrite() async throws {
        try await withNATS { _, connection in
            let namespace = uniqueNamespace()
            let first = try TestLog("first").open()
            let second = try TestLog("second").open()
            try await first.appendSamples(3, namespace: namespace)
            try await second.appendSamples(4, namespace: namespace)  // other events at the same positions
            let publisher = LogPublisher(log: first, namespace: namespace, connection: connection, replicas: 1)
            try await running(publisher.run) {
                try await eventually("the first node's events in the stream") { publisher.published == 3 ? true : nil }
            }
            let other = LogPublisher(log: second, namespace: namespace, connection: connection, replicas: 1)
            second.guardWrites(with: PrimaryWrites(publisher: other, acknowledgement: .local))
            await other.run()  // returns once fenced
            guard case .fenced = other.state else {
                Issue.record("expected the second node fenced, it is \(other.state)")
                return
            }
            let head = second.head
            let refused = await #expect(throws: ReplicationError.self) {
                try await second.append(AppendRequest(namespace: namespace, stream: "s0", events: [.sample()]))
            }
            #expect(refused?.code == .fenced)
            #expect(second.head == head)
            #expect(try await connection.streamInfo(other.stream.name).lastSequence == 3)
        }
    }

    @Test func aPrimaryBehindItsStreamIsFenced() async throws {
        try await withNATS { _, connection in
            let namespace = uniqueNamespace()
            let ahead = try TestLog("ahead").open()
            try await ahead.appendSamples(5, namespace: namespace)
            let publisher = LogPublisher(log: ahead, namespace: namespace, connection: connection, replicas: 1)
            try await running(publisher.run) {
                try await eventually("five events in the stream") { publisher.published == 5 ? true : nil }
            }
            // A node whose log holds the first two of them only (a replica that had not caught up) cannot publish.
            let behind = try TestLog("behind").open()
            try await behind.appendStored(Array(try ahead.allStored().prefix(2)))
            let late = LogPublisher(log: behind, namespace: namespace, connection: connection, replicas: 1)
            await late.run()
            guard case .fenced(let why) = late.state else {
                Issue.record("expected fenced, it is \(late.state)")
                return
            }
            #expect(why.contains("holds 5 events"))
        }
    }

    @Test func whileTheStreamCannotBeReachedReplicatedWritesAreRefusedAndTheyResumeAfter() async throws {
        try await withNATS(requestTimeout: .seconds(1)) { cluster, connection in
            let namespace = uniqueNamespace()
            let primary = try TestLog("primary").open()
            let publisher = LogPublisher(log: primary, namespace: namespace, connection: connection, replicas: 1)
            primary.guardWrites(
                with: PrimaryWrites(publisher: publisher, acknowledgement: .replicated(timeout: .seconds(2))))
            try await running(publisher.run) {
                try await primary.append(AppendRequest(namespace: namespace, stream: "s", events: [.sample(n: 1)]))
                await cluster.pause(server: 0)
                // Caught in flight: stored here, not replicated in time.
                let late = await #expect(throws: ReplicationError.self) {
                    try await primary.append(AppendRequest(namespace: namespace, stream: "s", events: [.sample(n: 2)]))
                }
                #expect(late?.code == .unavailable)
                #expect(primary.head == 2)
                // Once the publisher knows, a write is refused before anything is written.
                try await eventually("the publisher to find the stream unavailable") {
                    if case .unavailable = publisher.state { return true } else { return nil }
                }
                let refused = await #expect(throws: ReplicationError.self) {
                    try await primary.append(AppendRequest(namespace: namespace, stream: "s", events: [.sample(n: 3)]))
                }
                #expect(refused?.code == .unavailable)
                #expect(primary.head == 2)
                cluster.resume(server: 0)
                try await eventually("writes to resume") {
                    try await primary.append(AppendRequest(namespace: namespace, stream: "s", events: [.sample(n: 3)]))
                }
                #expect(publisher.published == 3)
            }
            let info = try await connection.streamInfo(publisher.stream.name)
            #expect(info.lastSequence == 3 && info.messages == 3)
        }
    }
}
