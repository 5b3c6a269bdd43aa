import EventLog

/// Every uploaded document by name, kept inline so a name is found in one read, and the bytes stored per
/// user and per namespace, which the storage quotas are checked against.
///
/// Table `documents`: `namespace 0 name 0` → `DocumentUploaded` body (blob id, kind, size,
/// content type, uploader).
/// Table `userBytes`: `namespace 0 user 0` → total size of the user's documents (UInt64, big-endian).
/// Table `namespaceBytes`: `namespace 0` → total size of the namespace's documents (UInt64, big-endian).
///
/// Version 2 added the two totals.
public struct DocumentsProjection: Projection {
    public static let name = "documents"
    public var name: String { Self.name }
    public var version: UInt32 { 2 }
    public var mode: ProjectionMode { .inline }
    public var tables: [String] { ["documents", "userBytes", "namespaceBytes"] }
    public var eventTypes: Set<String>? { [DocumentUploaded.type] }

    public init() {}

    public func apply(_ event: RecordedEvent, to state: ProjectionState) throws {
        guard let document = try DocumentUploaded.decode(event) else { return }
        let key = Key.joined(event.namespace, document.name)
        let isNew = try state.get("documents", key) == nil
        try state.put("documents", key, event.body.bytes)
        guard isNew else { return }
        for (table, total) in Self.totals(user: document.uploader, namespace: event.namespace) {
            try state.put(table, total, Self.encode(Self.total(table, total, in: state) &+ document.size))
        }
    }

    fileprivate static func totals(user: String, namespace: String) -> [(table: String, key: [UInt8])] {
        [
            ("userBytes", Key.joined(namespace, user)),
            ("namespaceBytes", Key.joined(namespace)),
        ]
    }

    fileprivate static func total(_ table: String, _ key: [UInt8], in state: ProjectionState) throws -> UInt64 {
        guard let stored = try state.get(table, key), stored.count == 8 else { return 0 }
        return stored.reduce(0) { $0 << 8 | UInt64($1) }
    }

    private static func encode(_ total: UInt64) -> [UInt8] { withUnsafeBytes(of: total.bigEndian, Array.init) }
}

extension LogSnapshot {
    /// The documents in this snapshot.
    var documents: ProjectionView<DocumentsProjection> { get throws { try view(DocumentsProjection()) } }
}

extension ProjectionView<DocumentsProjection> {
    /// The document of this name, or nil.
    func document(_ name: String, namespace: String) throws -> DocumentUploaded? {
        try event("documents", Key.joined(namespace, name))
    }

    /// Bytes of documents `user` has stored, and the namespace has.
    func usage(user: String, namespace: String) throws -> (user: UInt64, namespace: UInt64) {
        let keys = DocumentsProjection.totals(user: user, namespace: namespace)
        return (
            try DocumentsProjection.total(keys[0].table, keys[0].key, in: state),
            try DocumentsProjection.total(keys[1].table, keys[1].key, in: state)
        )
    }
}
