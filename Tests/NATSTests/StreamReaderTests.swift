import NATS
import NATSTesting
import Testing

/// A follower's view of a stream: in order from a sequence, with headers, then what arrives.
@Suite(.serialized, .natsServers(1)) struct StreamReaderTests {
    @Test func aReaderFromSequenceKGetsKThroughTheLastInOrderWithTheirHeadersThenNewMessages() async throws {
        try await withConnection { connection, _ in
            let stream = try await makeStream(connection)
            for position in UInt64(1)...10 {
                _ = try await connection.publish(
                    subject: "\(stream).events", data: .utf8("event \(position)"), messageID: "m\(position)",
                    expectedLastSequence: position - 1, headers: ["Muster-Position": "\(position)"])
            }
            let reader = try await connection.read(stream: stream, subject: "\(stream).>", from: 4)
            var received: [StreamMessage] = []
            // A fetch returns what has arrived; several may be needed for all seven.
            let deadline = ContinuousClock.now + .seconds(10)
            while received.count < 7 && ContinuousClock.now < deadline {
                received += try await reader.fetch(max: 100, timeout: .seconds(1))
            }
            #expect(received.map(\.sequence) == Array(4...10))
            #expect(received.map { String(decoding: $0.data, as: UTF8.self) } == (4...10).map { "event \($0)" })
            #expect(received.allSatisfy { $0.subject == "\(stream).events" })
            #expect(received.map { $0.headers["Muster-Position"] } == (4...10).map { "\($0)" })
            #expect(received.map { $0.headers["Nats-Msg-Id"] } == (4...10).map { "m\($0)" })
            #expect(reader.nextSequence == 11)

            // Nothing more yet: an empty batch after the timeout.
            #expect(try await reader.fetch(timeout: .milliseconds(200)).isEmpty)

            // Then each new message, published while the reader waits.
            let waiting = Task { try await reader.fetch(max: 100, timeout: .seconds(10)) }
            _ = try await connection.publish(
                subject: "\(stream).events", data: .utf8("event 11"), expectedLastSequence: 10,
                headers: ["Muster-Position": "11"])
            var later = try await waiting.value
            while later.count < 1 { later += try await reader.fetch(timeout: .seconds(1)) }
            #expect(later.map(\.sequence) == [11])
            #expect(later.first?.headers["Muster-Position"] == "11")
            await reader.close()
        }
    }

    @Test func aFetchReturnsAtMostTheBatchAndTheNextOneGoesOnAfterIt() async throws {
        try await withConnection { connection, _ in
            let stream = try await makeStream(connection)
            for position in UInt64(1)...5 {
                _ = try await connection.publish(subject: "\(stream).events", data: .utf8("\(position)"))
            }
            let reader = try await connection.read(stream: stream, subject: "\(stream).>", from: 1)
            var first: [StreamMessage] = []
            while first.isEmpty { first = try await reader.fetch(max: 3, timeout: .seconds(5)) }
            #expect(first.count <= 3)
            var all = first
            let deadline = ContinuousClock.now + .seconds(10)
            while all.count < 5 && ContinuousClock.now < deadline {
                all += try await reader.fetch(max: 3, timeout: .seconds(1))
            }
            #expect(all.map(\.sequence) == [1, 2, 3, 4, 5])
            await reader.close()
        }
    }

    @Test func closingAReaderEndsTheFetchWaitingAndLaterOnesThrowClosed() async throws {
        try await withConnection { connection, _ in
            let stream = try await makeStream(connection)
            let reader = try await connection.read(stream: stream, subject: "\(stream).>", from: 1)
            let started = ContinuousClock.now
            let waiting = Task { try await reader.fetch(timeout: .seconds(20)) }
            // Closing while the fetch waits (or before it began): it ends with what it has, or `closed`, long before
            // its timeout.
            await reader.close()
            let outcome = await waiting.result
            #expect(ContinuousClock.now - started < .seconds(10))
            switch outcome {
            case .success(let messages): #expect(messages.isEmpty)
            case .failure(let error): #expect((error as? NATSError)?.code == .closed, "\(error)")
            }
            let error = await #expect(throws: NATSError.self) { try await reader.fetch(timeout: .seconds(1)) }
            #expect(error?.code == .closed)
        }
    }

    @Test func readingAStreamThatDoesNotExistThrowsNotFound() async throws {
        try await withConnection { connection, _ in
            let name = uniqueName("MISSING")
            let error = await #expect(throws: NATSError.self) {
                try await connection.read(stream: name, subject: "\(name).>", from: 1)
            }
            #expect(error?.code == .notFound, "\(String(describing: error))")
        }
    }

    @Test func aMessageIsReadBackBySequence() async throws {
        try await withConnection { connection, _ in
            let stream = try await makeStream(connection)
            _ = try await connection.publish(subject: "\(stream).one", data: .utf8("first"))
            _ = try await connection.publish(
                subject: "\(stream).two", data: .utf8("second"), headers: ["Muster-Kind": "test"])
            let message = try #require(try await connection.message(stream: stream, sequence: 2))
            #expect(message.sequence == 2)
            #expect(message.subject == "\(stream).two")
            #expect(message.data == .utf8("second"))
            #expect(message.headers["Muster-Kind"] == "test")
            #expect(try await connection.message(stream: stream, sequence: 3) == nil)
            let error = await #expect(throws: NATSError.self) {
                try await connection.message(stream: uniqueName("MISSING"), sequence: 1)
            }
            #expect(error?.code == .notFound, "\(String(describing: error))")
        }
    }

    private func makeStream(_ connection: NATSConnection) async throws -> String {
        let name = uniqueName("READ")
        try await connection.createOrUpdateStream(StreamConfiguration(name: name, subjects: ["\(name).>"]))
        return name
    }
}
