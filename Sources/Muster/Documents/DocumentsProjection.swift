import EventLog
import Forms
import Foundation

/// Every uploaded document by name, kept inline so a name is found in one read, and the bytes stored per
/// user and per namespace, which the storage quotas are checked against.
///
/// Table `documents`: `namespace 0 name 0` → `DocumentUploaded` body (blob id, kind, size,
/// content type, uploader).
/// Table `userBytes`: `namespace 0 user 0` → total size of the user's documents (UInt64, big-endian).
/// Table `namespaceBytes`: `namespace 0` → total size of the namespace's documents (UInt64, big-endian).
/// Table `uploads`: `namespace 0 user 0 name 0` → when it was uploaded (microseconds since 1970, Int64,
/// big-endian): a user's own documents, listed without reading anyone else's.
/// Table `readers`: `namespace 0 name 0 user 0` → the ids of the messages (16 bytes each) that showed `user` the
/// document (an `image` field's url, a `document` field's url, a `markupImage` source naming it), so they may read
/// it too while one of them is not withdrawn. Filled from `PayloadSent` — the payload parsed once, when sent, and
/// only when its text may name a document or a named payload — for documents stored by then.
/// Table `namedShows`: `namespace 0 payload name 0` → `document 0 document 0 …`: what a named payload shows, so a
/// message sent by `payloadName` grants it to its recipients.
/// Table `namedRecipients`: `namespace 0 payload name 0 user 0` → the ids of the messages sent to `user` by that
/// name, so a named payload stored again with other documents shows those too (the message shows the payload as it
/// is when it is fetched).
///
/// Version 2 added the two totals, version 3 `uploads`, version 4 `readers`, version 5 the named payloads', version 6
/// the messages' ids in `readers` and `namedRecipients` (a withdrawn message no longer lets its recipient read what
/// it showed). A `DocumentRemoved` takes the document out of every table.
public struct DocumentsProjection: Projection {
    public static let name = "documents"
    public var name: String { Self.name }
    public var version: UInt32 { 6 }
    public var mode: ProjectionMode { .inline }
    public var tables: [String] {
        ["documents", "userBytes", "namespaceBytes", "uploads", "readers", "namedShows", "namedRecipients"]
    }
    public var eventTypes: Set<String>? {
        [DocumentUploaded.type, DocumentRemoved.type, PayloadSent.type, NamedPayloadStored.type]
    }

    public init() {}

    public func apply(_ event: RecordedEvent, to state: ProjectionState) throws {
        if event.type == PayloadSent.type { return try share(event, in: state) }
        if event.type == NamedPayloadStored.type { return try remember(event, in: state) }
        if let removed = try DocumentRemoved.decode(event) { return try forget(removed.name, event.namespace, state) }
        guard let document = try DocumentUploaded.decode(event) else { return }
        let key = Key.joined(event.namespace, document.name)
        let isNew = try state.get("documents", key) == nil
        try state.put("documents", key, event.body.bytes)
        guard isNew else { return }
        try state.put(
            "uploads", Key.joined(event.namespace, document.uploader, document.name),
            Self.encode(UInt64(bitPattern: event.recordedAt)))
        for (table, total) in Self.totals(user: document.uploader, namespace: event.namespace) {
            try state.put(table, total, Self.encode(Self.total(table, total, in: state) &+ document.size))
        }
    }

    /// Takes a removed document out: its row, its uploader's list, the totals, and who else could read it.
    private func forget(_ name: String, _ namespace: String, _ state: ProjectionState) throws {
        let key = Key.joined(namespace, name)
        guard let stored = try state.get("documents", key) else { return }
        let document = try stored.withUnsafeBytes { buffer in
            var reader = ByteReader(buffer)
            return try DocumentUploaded(from: &reader)
        }
        try state.delete("documents", key)
        try state.delete("uploads", Key.joined(namespace, document.uploader, name))
        for (table, total) in Self.totals(user: document.uploader, namespace: namespace) {
            let left = try Self.total(table, total, in: state)
            try state.put(table, total, Self.encode(left - min(left, document.size)))
        }
        var readers: [[UInt8]] = []
        try state.scan("readers", prefix: key) { reader, _ in
            readers.append(Array(reader))
            return true
        }
        for reader in readers { try state.delete("readers", reader) }
    }

    /// Lets the recipients of a message read the stored documents its payload shows — by `payloadName` too.
    private func share(_ event: RecordedEvent, in state: ProjectionState) throws {
        // Most payloads show no document and name no payload: their text has nothing to parse for.
        let bytes = event.body.bytes
        let mayEscape = bytes.containsBytes(Self.escape)
        let mayShow = mayEscape || bytes.containsBytes(Self.documentPrefix)
        let mayName = mayEscape || bytes.containsBytes(Self.payloadNameKey)
        guard mayShow || mayName, let sent = try PayloadSent.decode(event) else { return }
        let payload = Payload.parse(Data(sent.payload))
        var shown = payload.shownDocuments
        let recipients = sent.recipients.map { (user: $0.user, messages: [$0.messageId]) }
        if let name = payload.payloadName {
            shown.formUnion(try Self.shows(of: name, namespace: event.namespace, in: state))
            for recipient in sent.recipients {
                try Self.add(
                    [recipient.messageId], to: "namedRecipients", Key.joined(event.namespace, name, recipient.user),
                    in: state)
            }
        }
        try Self.grant(shown, to: recipients, namespace: event.namespace, in: state)
    }

    /// Keeps what a named payload shows, and lets those sent a message by its name read it.
    private func remember(_ event: RecordedEvent, in state: ProjectionState) throws {
        guard let stored = try NamedPayloadStored.decode(event) else { return }
        let key = Key.joined(event.namespace, stored.name)
        let shown = Payload.parse(Data(stored.payload)).shownDocuments
        guard !shown.isEmpty else {
            try state.delete("namedShows", key)
            return
        }
        try state.put("namedShows", key, shown.sorted().flatMap { Array($0.utf8) + [0] })
        var recipients: [(user: String, messages: [UUID])] = []
        try state.scan("namedRecipients", prefix: key) { recipient, messages in
            recipients.append((Key.components(recipient).last ?? "", try Self.messages(messages)))
            return true
        }
        try Self.grant(shown, to: recipients, namespace: event.namespace, in: state)
    }

    /// The documents the named payload showed when last stored.
    private static func shows(of name: String, namespace: String, in state: ProjectionState) throws -> Set<String> {
        guard let joined = try state.get("namedShows", Key.joined(namespace, name)) else { return [] }
        return Set(Key.components(joined))
    }

    /// Lets each user read each of the documents stored by now, as shown by their messages.
    private static func grant(
        _ documents: Set<String>, to recipients: [(user: String, messages: [UUID])], namespace: String,
        in state: ProjectionState
    ) throws {
        for name in documents.sorted() where try state.get("documents", Key.joined(namespace, name)) != nil {
            for recipient in recipients {
                try add(recipient.messages, to: "readers", Key.joined(namespace, name, recipient.user), in: state)
            }
        }
    }

    /// Adds the message ids not there yet to the row's.
    private static func add(_ messages: [UUID], to table: String, _ key: [UInt8], in state: ProjectionState) throws {
        let stored = try state.get(table, key) ?? []
        let known = Set(try Self.messages(stored))
        var value = stored
        for message in messages where !known.contains(message) {
            withUnsafeBytes(of: message.uuid) { value.append(contentsOf: $0) }
        }
        if value.count != stored.count { try state.put(table, key, value) }
    }

    /// The message ids of a `readers` or `namedRecipients` value.
    fileprivate static func messages(_ value: some Collection<UInt8>) throws -> [UUID] {
        try Array(value).withUnsafeBytes { buffer in
            var reader = ByteReader(buffer)
            return try (0..<value.count / 16).map { _ in try reader.readUUID("message id") }
        }
    }

    private static let documentPrefix = Array("rcs".utf8)
    private static let payloadNameKey = Array("payloadName".utf8)
    /// A `\u` escape can spell either without their letters (`rcs\/` needs no check: "rcs" is still there).
    private static let escape = Array("\\u".utf8)

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

    /// The documents `user` uploaded (nil: anyone, whether a user of the namespace or not, as `cli`), by uploader
    /// and name, each with when it was uploaded (microseconds since 1970).
    func uploads(user: String?, namespace: String) throws -> [(document: DocumentUploaded, uploadedAt: Int64)] {
        var names: [(String, Int64)] = []
        let prefix = user.map { Key.joined(namespace, $0) } ?? Key.joined(namespace)
        try state.scan("uploads", prefix: prefix) { key, value in
            let name = Key.components(key).last ?? ""
            let at = value.reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
            names.append((name, Int64(bitPattern: at)))
            return true
        }
        return try names.compactMap { name, at in try document(name, namespace: namespace).map { ($0, at) } }
    }

    /// Whether `user` may read the document: they uploaded it, or a message showed it to them that its sender has
    /// not withdrawn (as `inbox` has it).
    func isReadable(
        _ document: DocumentUploaded, by user: String, namespace: String, inbox: ProjectionView<InboxProjection>
    ) throws -> Bool {
        if document.uploader == user { return true }
        guard let value = try state.get("readers", Key.joined(namespace, document.name, user)) else { return false }
        return try DocumentsProjection.messages(value).contains { message in
            try inbox.addressed(message, user: user, namespace: namespace)?.state != .withdrawn
        }
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
