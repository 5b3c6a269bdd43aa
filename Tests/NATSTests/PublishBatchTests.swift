import EventLogTesting
import NATS
import NATSTesting
import Testing

/// Batch publishes: sent without waiting for each acknowledgement, answered in the batch's order, failing as the
/// first message that was not acknowledged.
@Suite(.serialized, .natsServers(1)) struct PublishBatchTests {
    @Test func aBatchIsStoredInOrderWithItsIDsAndAcknowledgedInOrder() async throws {
        try await withConnection { connection, _ in
            let stream = try await makeStream(connection)
            let acknowledgements = try await connection.publish(events(stream, 0..<1000))
            #expect(acknowledgements == (1...1000).map { acknowledgement(stream, $0) })
            let info = try await connection.streamInfo(stream)
            #expect(info.messages == 1000)
            #expect(info.lastSequence == 1000)
            let stored = try await readAll(connection, stream, count: 1000)
            #expect(stored.map(\.sequence) == Array(1...1000))
            #expect(stored.map { $0.headers["Nats-Msg-Id"] } == (0..<1000).map { "event-\($0)" })
            #expect(stored.map { $0.headers["Muster-Position"] } == (1...1000).map { "\($0)" })
            #expect(stored.map { String(decoding: $0.data, as: UTF8.self) } == (0..<1000).map { "event \($0)" })
        }
    }

    @Test(arguments: [0, 1, 57, 99])
    func aBatchWithAWrongExpectedSequenceFailsAsThatMessageAfterTheOnesBeforeIt(wrong: Int) async throws {
        try await withConnection { connection, _ in
            let stream = try await makeStream(connection)
            var messages = events(stream, 0..<100)
            messages[wrong].expectedLastSequence = UInt64(wrong) + 5
            let error = await #expect(throws: NATSError.self) { try await connection.publish(messages) }
            #expect(error?.code == .wrongLastSequence, "\(String(describing: error))")
            #expect(error?.jetStreamCode == 10071)
            #expect(error?.acknowledgedBefore == wrong)
            #expect(
                error?.description.contains("wrong last sequence: \(wrong)") == true, "\(String(describing: error))")
            let info = try await connection.streamInfo(stream)
            #expect(info.messages == UInt64(wrong))
            #expect(info.lastSequence == UInt64(wrong))
        }
    }

    @Test func aRepeatedBatchIsAcknowledgedAsDuplicatesAndStoredOnce() async throws {
        try await withConnection { connection, _ in
            let stream = try await makeStream(connection)
            let messages = events(stream, 0..<50)
            let first = try await connection.publish(messages)
            // Sent again after lost acknowledgements, with the same fences: recognised, not refused.
            let again = try await connection.publish(messages)
            #expect(first == (1...50).map { acknowledgement(stream, $0) })
            #expect(again == (1...50).map { acknowledgement(stream, $0, duplicate: true) })
            // Resuming from the middle: the stored part is recognised, the rest stored after it.
            let resumed = try await connection.publish(events(stream, 40..<60))
            #expect(resumed.map(\.duplicate) == Array(repeating: true, count: 10) + Array(repeating: false, count: 10))
            #expect(resumed.map(\.sequence) == Array(41...60))
            let info = try await connection.streamInfo(stream)
            #expect(info.messages == 60)
            #expect(info.lastSequence == 60)
        }
    }

    @Test func batchesAtOnceOnOneConnectionGetTheirOwnAcknowledgements() async throws {
        try await withConnection { connection, _ in
            let streams = [try await makeStream(connection), try await makeStream(connection)]
            async let first = connection.publish(events(streams[0], 0..<300))
            async let second = connection.publish(events(streams[1], 0..<200))
            let (one, two) = try await (first, second)
            #expect(one == (1...300).map { acknowledgement(streams[0], $0) })
            #expect(two == (1...200).map { acknowledgement(streams[1], $0) })
        }
    }

    @Test func aBatchNoStreamCapturesFailsAsUnavailableAtItsFirstMessage() async throws {
        try await withConnection { connection, _ in
            let error = await #expect(throws: NATSError.self) {
                try await connection.publish(events(uniqueName("nowhere"), 0..<10))
            }
            #expect(error?.code == .unavailable, "\(String(describing: error))")
            #expect(error?.statusText == "No responders available for request", "\(String(describing: error))")
            #expect(error?.acknowledgedBefore == 0)
        }
    }

    @Test func anEmptyBatchIsAcknowledgedWithNothing() async throws {
        try await withConnection { connection, _ in
            let acknowledgements = try await connection.publish([OutgoingMessage]())
            #expect(acknowledgements.isEmpty)
        }
    }

    @Test func aBatchToAServerThatHangsFailsAsUnavailableWithinItsTimeout() async throws {
        try await withConnection { connection, cluster in
            let stream = try await makeStream(connection)
            // More messages than wait for their acknowledgement at once: the sender stalls too, and stops.
            let messages = events(stream, 0..<1000)
            await cluster.pause(server: 0)
            let started = ContinuousClock.now
            let error = await #expect(throws: NATSError.self) {
                try await connection.publish(messages, timeout: .milliseconds(300))
            }
            let elapsed = ContinuousClock.now - started
            cluster.resume(server: 0)
            #expect(error?.code == .unavailable, "\(String(describing: error))")
            #expect(error?.statusText == "Timeout", "\(String(describing: error))")
            #expect(error?.acknowledgedBefore == 0)
            #expect(elapsed < .seconds(3), "took \(elapsed)")
            // What the server reads when it goes on is stored; sent again, the batch is stored once either way.
            let acknowledgements = try await eventually("the batch after the pause") {
                try await connection.publish(messages)
            }
            #expect(acknowledgements.map(\.sequence) == Array(1...1000))
            #expect(try await connection.streamInfo(stream).messages == 1000)
        }
    }

    /// Not a benchmark and no assertion on time: the log shows what pipelining gains on this machine.
    @Test func aThousandMessagesOneAtATimeAndAsABatch() async throws {
        try await withConnection { connection, _ in
            let oneByOne = try await makeStream(connection)
            let batched = try await makeStream(connection)
            let clock = ContinuousClock()
            let singleTime = try await clock.measure {
                for message in events(oneByOne, 0..<1000) {
                    _ = try await connection.publish(
                        subject: message.subject, data: message.data, messageID: message.messageID,
                        expectedLastSequence: message.expectedLastSequence, headers: message.headers)
                }
            }
            var acknowledgements: [PublishAcknowledgement] = []
            let batchTime = try await clock.measure {
                acknowledgements = try await connection.publish(events(batched, 0..<1000))
            }
            print("1,000 messages to JetStream: one at a time \(singleTime), as a batch \(batchTime)")
            #expect(try await connection.streamInfo(oneByOne).lastSequence == 1000)
            #expect(acknowledgements.last == acknowledgement(batched, 1000))
        }
    }

    /// The stream for one test, capturing `<name>.>`.
    private func makeStream(_ connection: NATSConnection) async throws -> String {
        let name = uniqueName("BATCH")
        try await connection.createOrUpdateStream(StreamConfiguration(name: name, subjects: ["\(name).>"]))
        return name
    }

    /// The first `count` messages of `stream`, in order.
    private func readAll(_ connection: NATSConnection, _ stream: String, count: Int) async throws -> [StreamMessage] {
        let reader = try await connection.read(stream: stream, subject: "\(stream).>", from: 1)
        var received: [StreamMessage] = []
        // A fetch returns what has arrived; several are needed for all.
        let deadline = ContinuousClock.now + .seconds(20)
        while received.count < count && ContinuousClock.now < deadline {
            received += try await reader.fetch(max: 500, timeout: .seconds(1))
        }
        await reader.close()
        return received
    }
}

/// Batches to a stream with three replicas, where each message goes through the stream's raft group.
@Suite(.serialized, .natsServers(3)) struct ReplicatedPublishBatchTests {
    @Test func aBatchToAnR3StreamIsStoredInOrderAndFailsAtAWrongExpectedSequence() async throws {
        try await withConnection { connection, _ in
            let oneByOne = uniqueName("REPLICATED_BATCH")
            let batched = uniqueName("REPLICATED_BATCH")
            for name in [oneByOne, batched] {
                try await connection.createOrUpdateStream(
                    StreamConfiguration(name: name, subjects: ["\(name).>"], replicas: 3))
            }
            // Not an assertion on time: the log shows what pipelining gains with replication.
            let clock = ContinuousClock()
            let singleTime = try await clock.measure {
                for message in events(oneByOne, 0..<1000) {
                    _ = try await connection.publish(
                        subject: message.subject, data: message.data, messageID: message.messageID,
                        expectedLastSequence: message.expectedLastSequence, headers: message.headers)
                }
            }
            var acknowledgements: [PublishAcknowledgement] = []
            let batchTime = try await clock.measure {
                acknowledgements = try await connection.publish(events(batched, 0..<1000))
            }
            print("1,000 messages to an R3 stream: one at a time \(singleTime), as a batch \(batchTime)")
            #expect(acknowledgements == (1...1000).map { acknowledgement(batched, $0) })
            #expect(try await connection.streamInfo(oneByOne).lastSequence == 1000)

            var next = events(batched, 1000..<1100)
            next[50].expectedLastSequence = 3
            let error = await #expect(throws: NATSError.self) { try await connection.publish(next) }
            #expect(error?.code == .wrongLastSequence, "\(String(describing: error))")
            #expect(error?.jetStreamCode == 10071)
            #expect(error?.acknowledgedBefore == 50)
            let info = try await connection.streamInfo(batched)
            #expect(info.lastSequence == 1050)
            #expect(info.messages == 1050)
        }
    }
}

/// Events at `positions` of a namespace's log as replication publishes them: the event ID, the position before.
private func events(_ stream: String, _ positions: Range<Int>) -> [OutgoingMessage] {
    positions.map { index in
        OutgoingMessage(
            subject: "\(stream).events", data: .utf8("event \(index)"), messageID: "event-\(index)",
            expectedLastSequence: UInt64(index), headers: ["Muster-Position": "\(index + 1)"])
    }
}

private func acknowledgement(_ stream: String, _ sequence: UInt64, duplicate: Bool = false) -> PublishAcknowledgement {
    PublishAcknowledgement(stream: stream, sequence: sequence, duplicate: duplicate)
}
