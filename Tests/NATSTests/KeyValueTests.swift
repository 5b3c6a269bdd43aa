import EventLogTesting
import NATS
import NATSTesting
import Testing

/// What a lease does with a key-value bucket: create when absent, renew by compare-and-set, lapse after the TTL.
@Suite(.serialized, .natsServers(1)) struct KeyValueTests {
    @Test func aKeyIsCreatedWhenAbsentAndCreatingItAgainIsRefusedWithKeyExists() async throws {
        try await withConnection { connection, _ in
            let bucket = try await connection.keyValueBucket(KeyValueConfiguration(bucket: uniqueName("LEASES")))
            #expect(try await bucket.get("acme") == nil)
            let revision = try await bucket.create("acme", value: .utf8("node-1"))
            #expect(
                try await bucket.get("acme") == KeyValueEntry(key: "acme", value: .utf8("node-1"), revision: revision))
            let error = await #expect(throws: NATSError.self) {
                try await bucket.create("acme", value: .utf8("node-2"))
            }
            #expect(error?.code == .keyExists, "\(String(describing: error))")
            #expect(error?.jetStreamCode == 10071)
            #expect(try await bucket.get("acme")?.value == .utf8("node-1"))
        }
    }

    @Test func anUpdateWithTheLatestRevisionIsAcceptedAndWithAStaleOneRefused() async throws {
        try await withConnection { connection, _ in
            let bucket = try await connection.keyValueBucket(KeyValueConfiguration(bucket: uniqueName("LEASES")))
            let first = try await bucket.create("acme", value: .utf8("node-1 term 1"))
            let renewed = try await bucket.update("acme", value: .utf8("node-1 term 2"), lastRevision: first)
            #expect(renewed > first)
            let error = await #expect(throws: NATSError.self) {
                try await bucket.update("acme", value: .utf8("node-2 term 1"), lastRevision: first)
            }
            #expect(error?.code == .wrongRevision, "\(String(describing: error))")
            #expect(error?.jetStreamCode == 10071)
            #expect(
                try await bucket.get("acme")
                    == KeyValueEntry(key: "acme", value: .utf8("node-1 term 2"), revision: renewed))
        }
    }

    @Test func aDeleteAtAStaleRevisionIsRefusedAndADeletedKeyCanBeCreatedAgain() async throws {
        try await withConnection { connection, _ in
            let bucket = try await connection.keyValueBucket(KeyValueConfiguration(bucket: uniqueName("LEASES")))
            let first = try await bucket.create("acme", value: .utf8("node-1"))
            let renewed = try await bucket.update("acme", value: .utf8("node-1 again"), lastRevision: first)
            let error = await #expect(throws: NATSError.self) { try await bucket.delete("acme", lastRevision: first) }
            #expect(error?.code == .wrongRevision, "\(String(describing: error))")
            #expect(try await bucket.get("acme")?.revision == renewed)

            try await bucket.delete("acme", lastRevision: renewed)
            #expect(try await bucket.get("acme") == nil)
            // Released: another node takes it with `create`, over the delete marker.
            let taken = try await bucket.create("acme", value: .utf8("node-2"))
            #expect(taken > renewed)
            #expect(try await bucket.get("acme")?.value == .utf8("node-2"))
        }
    }

    @Test func anEntryDisappearsAfterTheBucketsTTLAndCanThenBeCreatedAnew() async throws {
        try await withConnection { connection, _ in
            let bucket = try await connection.keyValueBucket(
                KeyValueConfiguration(bucket: uniqueName("LEASES"), ttl: .seconds(1)))
            let started = ContinuousClock.now
            let revision = try await bucket.create("acme", value: .utf8("node-1"))
            #expect(try await bucket.get("acme")?.revision == revision)
            // The lease is not renewed: the server removes the entry once it is older than the TTL.
            try await eventually("the entry to lapse", timeout: .seconds(15)) {
                try await bucket.get("acme") == nil ? true : nil
            }
            #expect(ContinuousClock.now - started >= .milliseconds(900))
            let taken = try await bucket.create("acme", value: .utf8("node-2"))
            #expect(taken > revision)
        }
    }

    @Test func keysListsTheKeysWithAValue() async throws {
        try await withConnection { connection, _ in
            let bucket = try await connection.keyValueBucket(KeyValueConfiguration(bucket: uniqueName("LEASES")))
            #expect(try await bucket.keys().isEmpty)
            try await bucket.create("acme", value: .utf8("1"))
            try await bucket.create("globex", value: .utf8("2"))
            try await bucket.create("initech", value: .utf8("3"))
            try await bucket.delete("globex")
            #expect(try await bucket.keys().sorted() == ["acme", "initech"])
        }
    }

    @Test(arguments: ["", "a b", "a.", ".a", "a..b", "a*", "a>"])
    func anInvalidKeyIsRefusedBeforeAnythingIsSent(key: String) async throws {
        try await withConnection { connection, _ in
            let bucket = try await connection.keyValueBucket(KeyValueConfiguration(bucket: uniqueName("LEASES")))
            let error = await #expect(throws: NATSError.self) { try await bucket.create(key, value: .utf8("x")) }
            #expect(error?.code == .invalidArgument, "\(String(describing: error))")
        }
    }

    @Test func aBucketIsOpenedAgainWithTheSameSettingsAndNotWithOthers() async throws {
        try await withConnection { connection, _ in
            let configuration = KeyValueConfiguration(bucket: uniqueName("LEASES"), ttl: .seconds(30))
            let bucket = try await connection.keyValueBucket(configuration)
            try await bucket.create("acme", value: .utf8("node-1"))
            let again = try await connection.keyValueBucket(configuration)
            #expect(try await again.get("acme")?.value == .utf8("node-1"))
            var other = configuration
            other.ttl = .seconds(60)
            let error = await #expect(throws: NATSError.self) { try await connection.keyValueBucket(other) }
            #expect(error?.code == .failed, "\(String(describing: error))")
            #expect(error?.call == "js_CreateKeyValue")
            // What it was made with can be read, to say which settings to use instead.
            let settings = try await connection.existingKeyValueBucket(configuration.bucket).settings()
            #expect(settings.ttl == .seconds(30) && settings.history == 1 && settings.replicas == 1, "\(settings)")
        }
    }

    @Test func aPutWritesWhateverTheRevisionAndAnExistingBucketOpensWithoutItsSettings() async throws {
        try await withConnection { connection, _ in
            let name = uniqueName("REPORTS")
            let missing = await #expect(throws: NATSError.self) { try await connection.existingKeyValueBucket(name) }
            #expect(missing?.code == .notFound)
            let made = try await connection.keyValueBucket(KeyValueConfiguration(bucket: name, ttl: .seconds(60)))
            let first = try await made.put("node.a", value: Array("one".utf8))
            let second = try await made.put("node.a", value: Array("two".utf8))
            #expect(second > first)
            let opened = try await connection.existingKeyValueBucket(name)
            #expect(
                try await opened.get("node.a")
                    == KeyValueEntry(key: "node.a", value: Array("two".utf8), revision: second))
        }
    }
}
