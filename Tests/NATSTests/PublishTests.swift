import EventLogTesting
import NATS
import NATSTesting
import Testing

/// Publishes fenced by the expected last sequence, de-duplicated by message ID, and the kinds of their failures.
@Suite(.serialized, .natsServers(1)) struct PublishTests {
    @Test func publishesExpectingTheLastSequenceAreStoredAtTheNextOne() async throws {
        try await withConnection { connection, _ in
            let stream = try await makeStream(connection)
            for expected in UInt64(0)..<3 {
                let ack = try await connection.publish(
                    subject: "\(stream).events", data: .utf8("event \(expected + 1)"), expectedLastSequence: expected)
                #expect(ack == PublishAcknowledgement(stream: stream, sequence: expected + 1, duplicate: false))
            }
            #expect(try await connection.streamInfo(stream).lastSequence == 3)
        }
    }

    @Test(arguments: [UInt64(0), 1, 5])
    func aPublishExpectingAnotherLastSequenceIsRefusedAndStoresNothing(expected: UInt64) async throws {
        try await withConnection { connection, _ in
            let stream = try await makeStream(connection)
            for _ in 0..<2 { _ = try await connection.publish(subject: "\(stream).events", data: .utf8("stored")) }
            let error = await #expect(throws: NATSError.self) {
                try await connection.publish(
                    subject: "\(stream).events", data: .utf8("refused"), expectedLastSequence: expected)
            }
            #expect(error?.code == .wrongLastSequence, "\(String(describing: error))")
            #expect(error?.jetStreamCode == 10071)
            #expect(error?.call == "js_PublishMsg")
            #expect(error?.description.contains("wrong last sequence: 2") == true, "\(String(describing: error))")
            let info = try await connection.streamInfo(stream)
            #expect(info.lastSequence == 2)
            #expect(info.messages == 2)
        }
    }

    @Test func aPublishExpectingAnotherLastSequenceOfItsSubjectIsRefused() async throws {
        try await withConnection { connection, _ in
            let stream = try await makeStream(connection)
            let first = try await connection.publish(
                subject: "\(stream).a", data: .utf8("a1"), expectedLastSubjectSequence: 0)
            _ = try await connection.publish(subject: "\(stream).b", data: .utf8("b1"))
            let second = try await connection.publish(
                subject: "\(stream).a", data: .utf8("a2"), expectedLastSubjectSequence: first.sequence)
            #expect(second.sequence == 3)
            let error = await #expect(throws: NATSError.self) {
                try await connection.publish(
                    subject: "\(stream).a", data: .utf8("a3"), expectedLastSubjectSequence: first.sequence)
            }
            #expect(error?.code == .wrongLastSequence, "\(String(describing: error))")
            #expect(try await connection.streamInfo(stream).messages == 3)
        }
    }

    @Test func aRepeatedMessageIDIsAcknowledgedAsDuplicateAndStoredOnce() async throws {
        try await withConnection { connection, _ in
            let stream = try await makeStream(connection)
            let first = try await connection.publish(
                subject: "\(stream).events", data: .utf8("once"), messageID: "event-1", expectedLastSequence: 0)
            // Sent again after a lost acknowledgement, with the same fence: recognised, not refused.
            let again = try await connection.publish(
                subject: "\(stream).events", data: .utf8("once"), messageID: "event-1", expectedLastSequence: 0)
            #expect(first == PublishAcknowledgement(stream: stream, sequence: 1, duplicate: false))
            #expect(again == PublishAcknowledgement(stream: stream, sequence: 1, duplicate: true))
            let other = try await connection.publish(
                subject: "\(stream).events", data: .utf8("next"), messageID: "event-2", expectedLastSequence: 1)
            #expect(other.sequence == 2 && !other.duplicate)
            let info = try await connection.streamInfo(stream)
            #expect(info.messages == 2)
            #expect(info.lastSequence == 2)
        }
    }

    @Test func aPublishNoStreamCapturesFailsAsUnavailable() async throws {
        try await withConnection { connection, _ in
            let error = await #expect(throws: NATSError.self) {
                try await connection.publish(subject: "\(uniqueName("nowhere")).x", data: .utf8("lost"))
            }
            #expect(error?.code == .unavailable, "\(String(describing: error))")
            #expect(error?.statusText == "No responders available for request", "\(String(describing: error))")
            // What libnats 3.4.1 reports for "no responders" to a JetStream request: JSNotEnabledErr.
            #expect(error?.jetStreamCode == 10076)
        }
    }

    @Test func aPublishRefusedForAnotherReasonIsNeitherAWrongSequenceNorUnavailable() async throws {
        try await withConnection { connection, _ in
            let stream = try await makeStream(connection)
            let error = await #expect(throws: NATSError.self) {
                try await connection.publish(
                    subject: "\(stream).events", data: .utf8("elsewhere"), expectedLastSequence: 0,
                    headers: ["Nats-Expected-Stream": "ANOTHER"])
            }
            #expect(error?.code == .failed, "\(String(describing: error))")
            #expect(error?.jetStreamCode == 10060, "expected stream does not match")
            #expect(try await connection.streamInfo(stream).messages == 0)
        }
    }

    @Test func aPublishToAServerThatHangsTimesOutAsUnavailable() async throws {
        try await withConnection { connection, cluster in
            let stream = try await makeStream(connection)
            await cluster.pause(server: 0)
            let started = ContinuousClock.now
            let error = await #expect(throws: NATSError.self) {
                try await connection.publish(
                    subject: "\(stream).events", data: .utf8("late"), messageID: "late", expectedLastSequence: 0,
                    timeout: .milliseconds(300))
            }
            let elapsed = ContinuousClock.now - started
            cluster.resume(server: 0)
            #expect(error?.code == .unavailable, "\(String(describing: error))")
            #expect(error?.statusText == "Timeout", "\(String(describing: error))")
            #expect(elapsed < .seconds(3), "took \(elapsed)")
            // The server may still read that publish when it goes on: sent again with the same ID and fence, it is stored
            // once either way.
            let ack = try await eventually("the publish after the pause") {
                try await connection.publish(
                    subject: "\(stream).events", data: .utf8("late"), messageID: "late", expectedLastSequence: 0)
            }
            #expect(ack.sequence == 1)
        }
    }

    /// The stream for one test, capturing `<name>.>`.
    private func makeStream(_ connection: NATSConnection) async throws -> String {
        let name = uniqueName("PUBLISH")
        try await connection.createOrUpdateStream(StreamConfiguration(name: name, subjects: ["\(name).>"]))
        return name
    }
}
