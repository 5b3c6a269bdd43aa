import CNATS
import Foundation

/// A JetStream key-value bucket: values under keys, each write numbered by a revision (its sequence in the bucket's
/// stream), with compare-and-set on that revision. What a lease needs: `create` when absent, renew by `update` on the
/// revision held, take over after the TTL let the entry lapse.
///
/// Reads go through libnats' `kvStore`. Writes are publishes to the key's subject in the bucket's stream
/// (`$KV.<bucket>.<key>` in `KV_<bucket>`, as libnats' own `kvStore_Create`/`kvStore_Update` make them) with the
/// expected last sequence of that subject: libnats 3.4.1's `kvStore_Create` and `kvStore_Update` drop JetStream's
/// error code (`src/kv.c` passes NULL for it), and without it "the key exists" or "another revision" cannot be told
/// from any other refusal.
///
/// Thread use of the `kvStore *`: libnats makes it safe to call from any thread; the calls come from `CallThreads`;
/// `deinit` destroys it, when no call can run any more (each holds the bucket).
public final class KeyValueBucket: @unchecked Sendable {
    /// The bucket's name.
    public let name: String
    private let connection: NATSConnection
    private let store: OpaquePointer

    init(name: String, connection: NATSConnection, store: OpaquePointer) {
        self.name = name
        self.connection = connection
        self.store = store
    }

    deinit {
        kvStore_Destroy(store)
    }

    /// The key's value and revision, or nil when the key has none (never written, deleted, or lapsed after the TTL).
    ///
    /// Any of the bucket's servers may answer (libnats reads with "direct get"), so a replica that lags may give an
    /// older revision: an `update` with it then fails with `wrongRevision`, never overwrites a newer one.
    public func get(_ key: String) async throws -> KeyValueEntry? {
        try validate(key)
        let store = Handle(store)
        let bucket = name
        return try await connection.blocking { connection in
            var entry: OpaquePointer?
            defer { kvEntry_Destroy(entry) }
            let status = kvStore_Get(&entry, store.pointer, key)
            if status == NATS_NOT_FOUND { return nil }
            try connection.check(status, "reading \(key) of the key-value bucket \(bucket)", call: "kvStore_Get")
            let length = Int(kvEntry_ValueLen(entry))
            let value: [UInt8] =
                if length > 0, let bytes = kvEntry_Value(entry) {
                    Array(UnsafeRawBufferPointer(start: bytes, count: length))
                } else {
                    []
                }
            return KeyValueEntry(key: key, value: value, revision: kvEntry_Revision(entry))
        }
    }

    /// The settings the bucket was made with: its time to live, history and replicas (its name is `name`).
    public func settings() async throws -> KeyValueConfiguration {
        let store = Handle(store)
        let bucket = name
        return try await connection.blocking { connection in
            var status: OpaquePointer?
            defer { kvStatus_Destroy(status) }
            try connection.check(
                kvStore_Status(&status, store.pointer), "reading the settings of the key-value bucket \(bucket)",
                call: "kvStore_Status")
            // libnats reports the bucket stream's MaxAge, in nanoseconds, as the TTL.
            let ttl = kvStatus_TTL(status)
            return KeyValueConfiguration(
                bucket: bucket, history: Int(kvStatus_History(status)), ttl: ttl > 0 ? .nanoseconds(ttl) : nil,
                replicas: Int(kvStatus_Replicas(status)))
        }
    }

    /// Writes `value` under `key` only if the key has no value (never written, deleted, or lapsed), and returns the
    /// new revision. Throws `keyExists` when it has one.
    @discardableResult
    public func create(_ key: String, value: [UInt8]) async throws -> UInt64 {
        try validate(key)
        do {
            return try await write(key, value, expectedRevision: 0)
        } catch let error as NATSError where error.code == .wrongLastSequence {
            // A deleted key's last entry is its delete marker, which has a revision: expect that one.
            if let last = try await connection.lastMessage(stream: stream, subject: subject(key)),
                ["DEL", "PURGE"].contains(last.headers["KV-Operation"])
            {
                do {
                    return try await write(key, value, expectedRevision: last.sequence)
                } catch let error as NATSError where error.code == .wrongLastSequence {
                    throw exists(key, error)
                }
            }
            throw exists(key, error)
        }
    }

    /// Writes `value` under `key` only if the key's latest revision is `lastRevision`, and returns the new revision.
    /// Throws `wrongRevision` when another write came between (or the entry lapsed).
    @discardableResult
    public func update(_ key: String, value: [UInt8], lastRevision: UInt64) async throws -> UInt64 {
        try validate(key)
        do {
            return try await write(key, value, expectedRevision: lastRevision)
        } catch let error as NATSError where error.code == .wrongLastSequence {
            throw wrongRevision(key, lastRevision, error)
        }
    }

    /// Writes `value` under `key` whatever its latest revision (for a value only its writer writes, such as a node's
    /// report of itself), and returns the new revision.
    @discardableResult
    public func put(_ key: String, value: [UInt8]) async throws -> UInt64 {
        try validate(key)
        return try await write(key, value, expectedRevision: nil)
    }

    /// Deletes the key's value (a delete marker, so that `create` works again); with `lastRevision`, only if that is
    /// the key's latest revision (releasing a lease only while still holding it), else throws `wrongRevision`.
    public func delete(_ key: String, lastRevision: UInt64? = nil) async throws {
        try validate(key)
        do {
            _ = try await connection.publish(
                subject: subject(key), data: [], expectedLastSubjectSequence: lastRevision,
                headers: ["KV-Operation": "DEL"])
        } catch let error as NATSError where error.code == .wrongLastSequence {
            throw wrongRevision(key, lastRevision ?? 0, error)
        }
    }

    /// The keys that have a value now (not deleted, not lapsed), in no particular order.
    public func keys() async throws -> [String] {
        let store = Handle(store)
        let bucket = name
        let timeout = connection.configuration.requestTimeout.milliseconds
        return try await connection.blocking { connection in
            var options = kvWatchOptions()
            kvWatchOptions_Init(&options)
            options.Timeout = timeout
            var list = kvKeysList()
            defer { kvKeysList_Destroy(&list) }
            try connection.check(
                kvStore_Keys(&list, store.pointer, &options), "listing the keys of the key-value bucket \(bucket)",
                call: "kvStore_Keys")
            return (0..<Int(list.Count)).compactMap { list.Keys[$0].map { String(cString: $0) } }
        }
    }

    /// The bucket's stream.
    private var stream: String { "KV_\(name)" }

    /// The subject `key`'s entries are published to.
    private func subject(_ key: String) -> String { "$KV.\(name).\(key)" }

    /// Publishes `value` as `key`'s next entry if the key's latest revision is `expectedRevision` (0: none).
    private func write(_ key: String, _ value: [UInt8], expectedRevision: UInt64?) async throws -> UInt64 {
        try await connection.publish(
            subject: subject(key), data: value, expectedLastSubjectSequence: expectedRevision
        ).sequence
    }

    /// Throws `invalidArgument` unless `key` is one libnats accepts: letters, digits and `-_/\=.`, no empty part
    /// between dots.
    private func validate(_ key: String) throws {
        let allowed = CharacterSet.alphanumerics.union(CharacterSet(charactersIn: "-_/\\=."))
        let valid =
            !key.isEmpty && key.unicodeScalars.allSatisfy { $0.isASCII && allowed.contains($0) }
            && !key.split(separator: ".", omittingEmptySubsequences: false).contains { $0.isEmpty }
        if !valid {
            throw NATSError(
                .invalidArgument,
                "\"\(key)\" is not a valid key of the key-value bucket \(name): expected letters, digits and -_/\\=., "
                    + "with no empty part between dots")
        }
    }

    private func exists(_ key: String, _ cause: NATSError) -> NATSError {
        NATSError(
            .keyExists,
            "creating \(key) in the key-value bucket \(name) failed: the key has a value (\(cause.message))",
            cause: cause)
    }

    private func wrongRevision(_ key: String, _ revision: UInt64, _ cause: NATSError) -> NATSError {
        NATSError(
            .wrongRevision,
            "writing \(key) in the key-value bucket \(name) at revision \(revision) failed: its latest revision is "
                + "another (\(cause.message))", cause: cause)
    }
}

extension NATSConnection {
    /// Opens the key-value bucket `name` as it exists, whatever its settings (for tools that read or write a bucket
    /// another program made). Throws `notFound` when there is none.
    public func existingKeyValueBucket(_ name: String) async throws -> KeyValueBucket {
        try KeyValueConfiguration(bucket: name).validate()
        let store = try await blocking { connection in
            var store: OpaquePointer?
            try connection.check(
                js_KeyValue(&store, connection.jetStream, name), "opening the key-value bucket \(name)",
                call: "js_KeyValue")
            return Handle(store!)
        }
        return KeyValueBucket(name: name, connection: self, store: store.pointer)
    }

    /// Creates the key-value bucket, or opens it when it exists with the same settings.
    ///
    /// Throws `failed` when it exists with other settings, `invalidArgument` for a bad name or history.
    public func keyValueBucket(_ configuration: KeyValueConfiguration) async throws -> KeyValueBucket {
        try configuration.validate()
        let store = try await blocking { connection in
            try configuration.withCConfiguration { config in
                var store: OpaquePointer?
                try connection.check(
                    js_CreateKeyValue(&store, connection.jetStream, &config),
                    "creating or opening the key-value bucket \(configuration.bucket)", call: "js_CreateKeyValue")
                return Handle(store!)
            }
        }
        return KeyValueBucket(name: configuration.bucket, connection: self, store: store.pointer)
    }
}
