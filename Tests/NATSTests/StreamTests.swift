import NATS
import NATSTesting
import Testing

/// Making, changing, reading and deleting streams.
@Suite(.serialized, .natsServers(1)) struct StreamTests {
    @Test func aStreamIsCreatedThenChangedAndItsInfoSaysHow() async throws {
        try await withConnection { connection, _ in
            let name = uniqueName("STREAM")
            let configuration = StreamConfiguration(name: name, subjects: ["\(name).a.>"], storage: .memory)
            let created = try await connection.createOrUpdateStream(configuration)
            #expect(created.configuration == configuration)
            #expect(created.messages == 0 && created.lastSequence == 0)
            #expect(created.cluster?.leader != nil || created.cluster == nil)
            // The same configuration again changes nothing.
            #expect(try await connection.createOrUpdateStream(configuration).configuration == configuration)

            _ = try await connection.publish(subject: "\(name).a.1", data: .utf8("kept"))
            var changed = configuration
            changed.subjects.append("\(name).b.>")
            changed.duplicateWindow = .seconds(30)
            changed.allowDirect = true
            let updated = try await connection.createOrUpdateStream(changed)
            #expect(updated.configuration == changed)
            #expect(updated.messages == 1, "a change keeps the messages")
            let ack = try await connection.publish(subject: "\(name).b.1", data: .utf8("new subject"))
            #expect(ack.sequence == 2)
            let info = try await connection.streamInfo(name)
            #expect(info.firstSequence == 1 && info.lastSequence == 2 && info.messages == 2)
        }
    }

    @Test func aDeletedStreamIsNotFound() async throws {
        try await withConnection { connection, _ in
            let name = uniqueName("STREAM")
            try await connection.createOrUpdateStream(StreamConfiguration(name: name, subjects: ["\(name).>"]))
            try await connection.deleteStream(name)
            let error = await #expect(throws: NATSError.self) { try await connection.streamInfo(name) }
            #expect(error?.code == .notFound, "\(String(describing: error))")
            #expect(error?.jetStreamCode == 10059)
            let again = await #expect(throws: NATSError.self) { try await connection.deleteStream(name) }
            #expect(again?.code == .notFound, "\(String(describing: again))")
        }
    }

    @Test func whatTheServerRefusesNamesJetStreamsCode() async throws {
        try await withConnection { connection, _ in
            let name = uniqueName("STREAM")
            let replicated = await #expect(throws: NATSError.self) {
                try await connection.createOrUpdateStream(
                    StreamConfiguration(name: name, subjects: ["\(name).>"], replicas: 3))
            }
            #expect(replicated?.code == .failed, "\(String(describing: replicated))")
            #expect(replicated?.jetStreamCode == 10074, "a single server has no replicas")
            #expect(replicated?.description.contains("replicas > 1 not supported") == true)

            let dotted = await #expect(throws: NATSError.self) {
                try await connection.createOrUpdateStream(StreamConfiguration(name: "muster.acme", subjects: ["x.>"]))
            }
            #expect(dotted?.code == .invalidArgument, "\(String(describing: dotted))")
        }
    }

    @Test func callsWaitingForTheServerDoNotHoldUpOthers() async throws {
        try await withConnection { connection, _ in
            let name = uniqueName("STREAM")
            try await connection.createOrUpdateStream(StreamConfiguration(name: name, subjects: ["\(name).>"]))
            // More blocked calls than the machine has cores: were they on the cooperative pool, nothing else would run.
            let readers = try await (0..<8).asyncMap { _ in
                try await connection.read(stream: name, subject: "\(name).quiet", from: 1)
            }
            let waiting = readers.map { reader in Task { try await reader.fetch(timeout: .seconds(5)) } }
            let started = ContinuousClock.now
            let ack = try await connection.publish(subject: "\(name).busy", data: .utf8("through"))
            #expect(ack.sequence == 1)
            #expect(ContinuousClock.now - started < .seconds(2))
            for reader in readers { await reader.close() }
            for fetch in waiting { _ = await fetch.result }
        }
    }
}

extension Sequence {
    /// `map` with an async transform, one element after the other.
    func asyncMap<T>(_ transform: (Element) async throws -> T) async rethrows -> [T] {
        var results: [T] = []
        for element in self { results.append(try await transform(element)) }
        return results
    }
}
