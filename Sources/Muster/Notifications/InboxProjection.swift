import EventLog
import Foundation

/// Every person's pending messages, kept inline so `respond` checks and answers in one transaction.
///
/// Tables:
/// - `pending`: `namespace 0 user 0` + position (8 bytes, big-endian) + message id (16 bytes) →
///   `PayloadMessage`; the position orders a user's inbox oldest first.
/// - `addressed`: `namespace 0 messageId 0 user 0` → position (8 bytes, big-endian) + state (0 pending,
///   1 answered, 2 withdrawn); it outlives the answer so a second response is told apart from an unknown message.
/// - `sends`: `namespace 0` + the send's position subtracted from 2⁶⁴ − 1 (8 bytes, big-endian: newest first) → its
///   recipients, how many answered and how many were withdrawn (3 × 4 bytes, big-endian), so a sender sees where a
///   send stands without reading each recipient's message.
///
/// `UserRemoved` takes the user's pending messages out of both tables (their answered ones stay; the send counts
/// them withdrawn). `MessageWithdrawn` takes the message out of `pending`. Version 2 added `sends`.
public struct InboxProjection: Projection {
    public static let name = "inbox"
    public var name: String { Self.name }
    public var version: UInt32 { 2 }
    public var mode: ProjectionMode { .inline }
    public var tables: [String] { ["pending", "addressed", "sends"] }
    public var eventTypes: Set<String>? {
        [PayloadSent.type, ResponseReceived.type, UserRemoved.type, MessageWithdrawn.type]
    }

    public init() {}

    public func apply(_ event: RecordedEvent, to state: ProjectionState) throws {
        let ns = event.namespace
        if let sent = try PayloadSent.decode(event) {
            try state.put(
                "sends", Self.sendKey(ns, event.position),
                SendCounts(recipients: UInt32(sent.recipients.count), answered: 0, withdrawn: 0).bytes)
            for recipient in sent.recipients {
                let message = PayloadMessage(
                    messageId: recipient.messageId, title: sent.title, body: sent.body, sentAt: event.recordedAt,
                    responseTopic: sent.responseTopic, position: event.position)
                var w = ByteWriter(capacity: 96)
                message.encode(into: &w)
                try state.put(
                    "pending", Self.pendingKey(ns, recipient.user, event.position, recipient.messageId), w.bytes)
                try state.put(
                    "addressed", Self.addressedKey(ns, recipient.messageId, recipient.user),
                    Self.addressedValue(event.position, .pending))
            }
        } else if let response = try ResponseReceived.decode(event) {
            try close(response.messageId, of: response.user, as: .answered, namespace: ns, in: state)
        } else if let withdrawn = try MessageWithdrawn.decode(event) {
            try close(withdrawn.messageId, of: withdrawn.user, as: .withdrawn, namespace: ns, in: state)
        } else if let removed = try UserRemoved.decode(event) {
            try withdraw(removed.name, namespace: ns, in: state)
        }
    }

    /// Takes an answered or withdrawn message out of its recipient's inbox, and says which it was.
    private func close(
        _ id: UUID, of user: String, as next: Addressed.State, namespace ns: String, in state: ProjectionState
    ) throws {
        let key = Self.addressedKey(ns, id, user)
        guard let value = try state.get("addressed", key), value.count == 9 else { return }
        let position = Self.position(value)
        try state.delete("pending", Self.pendingKey(ns, user, position, id))
        try state.put("addressed", key, Self.addressedValue(position, next))
        try count(next, ofSendAt: position, namespace: ns, in: state)
    }

    /// Counts one more of the send's messages answered or withdrawn.
    private func count(
        _ closed: Addressed.State, ofSendAt position: UInt64, namespace ns: String, in state: ProjectionState
    ) throws {
        let key = Self.sendKey(ns, position)
        guard var counts = try state.get("sends", key).flatMap(SendCounts.init(bytes:)) else { return }
        if closed == .answered { counts.answered += 1 } else { counts.withdrawn += 1 }
        try state.put("sends", key, counts.bytes)
    }

    /// Takes every message still waiting for a removed user out of the projection, as if never sent to them: a new
    /// user of the name neither sees nor answers them. Answered ones stay answered.
    private func withdraw(_ user: String, namespace ns: String, in state: ProjectionState) throws {
        let prefix = Key.joined(ns, user)
        var keys: [[UInt8]] = []
        try state.scan("pending", prefix: prefix) { key, _ in
            keys.append(Array(key))
            return true
        }
        for key in keys {
            // The key's tail: the position (8 bytes) and the message id (16).
            let id = key.suffix(16).withUnsafeBytes { UUID(uuid: $0.loadUnaligned(as: uuid_t.self)) }
            let position = key.dropLast(16).suffix(8).reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
            try state.delete("pending", key)
            try state.delete("addressed", Self.addressedKey(ns, id, user))
            try count(.withdrawn, ofSendAt: position, namespace: ns, in: state)
        }
    }

    private static func pendingKey(_ ns: String, _ user: String, _ position: UInt64, _ id: UUID) -> [UInt8] {
        Key.joined(ns, user) + Key.position(position) + withUnsafeBytes(of: id.uuid) { Array($0) }
    }

    /// The `sends` key of the send at `position`: newest first.
    fileprivate static func sendKey(_ ns: String, _ position: UInt64) -> [UInt8] {
        Key.joined(ns) + Key.position(UInt64.max - position)
    }

    fileprivate static func addressedKey(_ ns: String, _ id: UUID, _ user: String) -> [UInt8] {
        Key.joined(ns, id.uuidString, user)
    }

    private static func addressedValue(_ position: UInt64, _ state: Addressed.State) -> [UInt8] {
        Key.position(position) + [state.rawValue]
    }

    /// The position in an `addressed` value.
    fileprivate static func position(_ value: [UInt8]) -> UInt64 {
        value.prefix(8).reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
    }
}

extension LogSnapshot {
    /// Everyone's inbox in this snapshot.
    var inbox: ProjectionView<InboxProjection> { get throws { try view(InboxProjection()) } }
}

extension ProjectionView<InboxProjection> {
    /// The user's pending messages, oldest first.
    func pending(user: String, namespace: String) throws -> [PayloadMessage] {
        var messages: [PayloadMessage] = []
        try state.scan("pending", prefix: Key.joined(namespace, user)) { _, value in
            var reader = ByteReader(value)
            messages.append(try PayloadMessage(from: &reader))
            return true
        }
        return messages
    }

    /// The namespace's sends, newest first (only those older than the one at `olderThan` when given), at most
    /// `limit`: each one's position and counts.
    func sends(namespace: String, olderThan: UInt64? = nil, limit: Int) throws
        -> [(position: UInt64, counts: SendCounts)]
    {
        var found: [(UInt64, SendCounts)] = []
        let prefix = Key.joined(namespace)
        // Keys run newest first: the sends older than one start just after its key.
        let start = olderThan.map { InboxProjection.sendKey(namespace, $0 - 1) } ?? prefix
        try state.scan("sends", from: start) { key, value in
            guard found.count < limit, key.starts(with: prefix) else { return false }
            if let counts = SendCounts(bytes: value) {
                found.append((UInt64.max - Key.readPosition(key, at: key.count - 8), counts))
            }
            return true
        }
        return found
    }

    /// The counts of the send at `position`; nil when no send of `namespace` is there.
    func send(at position: UInt64, namespace: String) throws -> SendCounts? {
        try state.get("sends", InboxProjection.sendKey(namespace, position)).flatMap(SendCounts.init(bytes:))
    }

    /// Whether a message of this id was sent to anyone in `namespace`.
    func wasSent(_ messageId: UUID, namespace: String) throws -> Bool {
        var found = false
        try state.scan("addressed", prefix: Key.joined(namespace, messageId.uuidString)) { _, _ in
            found = true
            return false
        }
        return found
    }

    /// Where the message sent to `user` is (the position of its `PayloadSent`) and whether it was answered or
    /// withdrawn; nil when it was not sent to `user`.
    func addressed(_ messageId: UUID, user: String, namespace: String) throws -> Addressed? {
        guard let value = try state.get("addressed", InboxProjection.addressedKey(namespace, messageId, user)) else {
            return nil
        }
        return Addressed(position: InboxProjection.position(value), state: Addressed.State(byte: value.last ?? 0))
    }

    /// Who message `messageId` was sent to in `namespace`, and where it stands; nil when it was sent to nobody there.
    func recipient(of messageId: UUID, namespace: String) throws -> (user: String, addressed: Addressed)? {
        var found: (String, Addressed)?
        try state.scan("addressed", prefix: Key.joined(namespace, messageId.uuidString)) { key, value in
            let bytes = Array(value)
            let user = Key.components(key).dropFirst(2).first ?? ""
            found = (
                user,
                Addressed(position: InboxProjection.position(bytes), state: Addressed.State(byte: bytes.last ?? 0))
            )
            return false
        }
        return found
    }
}

/// A message as its recipient's inbox has it: where its `PayloadSent` is, and where it stands.
struct Addressed {
    enum State: UInt8 {
        case pending = 0, answered = 1, withdrawn = 2

        /// An unknown state byte reads as answered: closed, as a newer release meant it.
        init(byte: UInt8) {
            switch byte {
            case 0: self = .pending
            case 2: self = .withdrawn
            default: self = .answered
            }
        }
    }

    var position: UInt64
    var state: State
}

/// Where a send stands: its recipients, and how many of its messages were answered or withdrawn; the rest wait.
struct SendCounts: Hashable {
    var recipients: UInt32
    var answered: UInt32
    var withdrawn: UInt32

    /// The messages still waiting for an answer.
    var pending: UInt32 { recipients - min(recipients, answered + withdrawn) }

    init(recipients: UInt32, answered: UInt32, withdrawn: UInt32) {
        self.recipients = recipients
        self.answered = answered
        self.withdrawn = withdrawn
    }

    /// Read from a `sends` value; nil for one of another length.
    init?(bytes: some Collection<UInt8>) {
        guard bytes.count == 12 else { return nil }
        let words = stride(from: 0, to: 12, by: 4).map { offset in
            bytes.dropFirst(offset).prefix(4).reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
        }
        self.init(recipients: words[0], answered: words[1], withdrawn: words[2])
    }

    var bytes: [UInt8] { [recipients, answered, withdrawn].flatMap { withUnsafeBytes(of: $0.bigEndian, Array.init) } }
}
