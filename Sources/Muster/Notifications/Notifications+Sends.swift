import EventLog
import Foundation
import MusterWire

extension Notifications {
    /// The namespace's sends, newest first, at most `limit` (1 to 1,000): what each said, to how many, and how many
    /// of its messages were answered, withdrawn, or still wait.
    public func sends(namespace: String = Names.defaultNamespace, limit: Int = 50) throws -> [SendOverview] {
        guard (1...1000).contains(limit) else {
            throw MusterError(.invalidArgument, "limit: give a number from 1 to 1000", field: "limit")
        }
        return try log.read { reader in
            try reader.inbox.sends(namespace: namespace, limit: limit).compactMap { position, counts in
                try Self.overview(at: position, counts, in: reader, withMessages: false)
            }
        }
    }

    /// The send `sendId` of the namespace, with where each recipient's message stands; nil when the namespace has no
    /// send of that id.
    public func send(_ sendId: UUID, namespace: String = Names.defaultNamespace) throws -> SendOverview? {
        try log.read { reader in
            guard let position = try reader.position(ofEventId: sendId),
                let counts = try reader.inbox.send(at: position, namespace: namespace)
            else { return nil }
            return try Self.overview(at: position, counts, in: reader, withMessages: true)
        }
    }

    /// The send recorded at `position`, read with its counts; nil when no `PayloadSent` is there.
    private static func overview(
        at position: UInt64, _ counts: SendCounts, in reader: LogReader, withMessages: Bool
    ) throws -> SendOverview? {
        guard let event = try reader.event(at: position), let sent = try PayloadSent.decode(event) else { return nil }
        let inbox = try reader.inbox
        let messages =
            try withMessages
            ? sent.recipients.map { recipient in
                let state = try inbox.addressed(recipient.messageId, user: recipient.user, namespace: event.namespace)?
                    .state
                return SendOverview.Standing(
                    user: recipient.user, messageId: recipient.messageId,
                    state: state.map(SendOverview.State.init) ?? .withdrawn)
            } : nil
        return SendOverview(
            sendId: event.id, title: sent.title, body: sent.body, sender: sent.sender,
            sentAt: Date(timeIntervalSince1970: Double(event.recordedAt) / 1_000_000),
            recipients: Int(counts.recipients),
            answered: Int(counts.answered), withdrawn: Int(counts.withdrawn), pending: Int(counts.pending),
            messages: messages)
    }
}

extension SendOverview.State {
    /// A message's state as the inbox has it (a removed user's: withdrawn).
    init(_ state: Addressed.State) {
        switch state {
        case .pending: self = .pending
        case .answered: self = .answered
        case .withdrawn: self = .withdrawn
        }
    }
}
