import EventLog
import Foundation
import MusterWire

extension Notifications {
    /// The namespace's sends, newest first, at most `limit` (1 to 1,000): what each said, to how many, and how many
    /// of its messages were answered, withdrawn, or still wait. With `before`, the sends older than that one: the
    /// next page after a list that ended with it.
    public func sends(namespace: String = Names.defaultNamespace, before: UUID? = nil, limit: Int = 50) throws
        -> [SendOverview]
    {
        guard (1...1000).contains(limit) else {
            throw MusterError(.invalidArgument, "limit: give a number from 1 to 1000", field: "limit")
        }
        return try log.read { reader in
            var after: UInt64?
            if let before {
                guard let position = try Self.sendPosition(before, namespace: namespace, in: reader) else {
                    throw MusterError(
                        .invalidArgument,
                        "before: no send \(before.uuidString.lowercased()) in namespace \(namespace); give a sendId "
                            + "a list of sends showed", field: "before")
                }
                after = position
            }
            return try reader.inbox.sends(namespace: namespace, olderThan: after, limit: limit).compactMap {
                position, counts in
                guard let send = try DecodedSends.shared.send(at: position, in: reader) else { return nil }
                return SendOverview(send, counts)
            }
        }
    }

    /// The send `sendId` of the namespace, with where its recipients' messages stand: at most `limit` (1 to 10,000)
    /// of them in the send's order from its `from`th recipient (from 0), only those in `state` when one is given;
    /// `nextFrom` says where the next page starts. Nil when the namespace has no send of that id.
    public func send(
        _ sendId: UUID, namespace: String = Names.defaultNamespace, state: SendOverview.State? = nil, from: Int = 0,
        limit: Int = 1000
    ) throws -> SendOverview? {
        guard (1...10_000).contains(limit) else {
            throw MusterError(.invalidArgument, "limit: give a number from 1 to 10000", field: "limit")
        }
        guard from >= 0 else {
            throw MusterError(.invalidArgument, "from: give a recipient's index in the send, from 0", field: "from")
        }
        return try log.read { reader in
            guard let position = try reader.position(ofEventId: sendId),
                let counts = try reader.inbox.send(at: position, namespace: namespace),
                // The recipients first: decoding them keeps the send's head too.
                let recipients = try DecodedSends.shared.recipients(at: position, in: reader),
                let send = try DecodedSends.shared.send(at: position, in: reader)
            else { return nil }
            let inbox = try reader.inbox
            var overview = SendOverview(send, counts)
            var messages: [SendOverview.Standing] = []
            for index in recipients.indices.dropFirst(from) {
                let recipient = recipients[index]
                let standing = SendOverview.Standing(
                    user: recipient.user, messageId: recipient.messageId,
                    state: try inbox.addressed(recipient.messageId, user: recipient.user, namespace: namespace)
                        .map { SendOverview.State($0.state) } ?? .withdrawn)
                guard state == nil || standing.state == state else { continue }
                // One more than the page shows: where the next page starts, and that there is one.
                guard messages.count < limit else {
                    overview.nextFrom = index
                    break
                }
                messages.append(standing)
            }
            overview.messages = messages
            return overview
        }
    }

    /// Withdraws every message of the send `sendId` not answered yet, in one append, as ``withdraw(_:namespace:actor:)``
    /// withdraws each; returns how many, or nil when the namespace has no send of that id. None pending: 0, nothing
    /// written.
    public func withdrawPending(
        ofSend sendId: UUID, namespace: String = Names.defaultNamespace, actor: String = "system"
    ) async throws -> Int? {
        try Names.validate(namespace, as: "namespace")
        return try await log.perform { scope in
            guard let position = try Self.sendPosition(sendId, namespace: namespace, in: scope),
                let recipients = try DecodedSends.shared.recipients(at: position, in: scope)
            else { return nil }
            let inbox = try scope.inbox
            var withdrawn = 0
            for recipient in recipients
            where try inbox.addressed(recipient.messageId, user: recipient.user, namespace: namespace)?.state
                == .pending
            {
                try Self.appendWithdrawal(of: recipient.messageId, to: recipient.user, namespace, actor, in: scope)
                withdrawn += 1
            }
            return withdrawn
        }
    }

    /// Where the send `sendId` of `namespace` is in the log; nil when the namespace has no send of that id.
    private static func sendPosition(_ sendId: UUID, namespace: String, in snapshot: some LogSnapshot) throws
        -> UInt64?
    {
        guard let position = try snapshot.position(ofEventId: sendId),
            try snapshot.inbox.send(at: position, namespace: namespace) != nil
        else { return nil }
        return position
    }
}

extension SendOverview {
    /// The send as kept decoded, with its counts.
    init(_ send: DecodedSends.Send, _ counts: SendCounts) {
        let sent = send.sent
        self.init(
            sendId: send.id, title: sent.title, body: sent.body, sender: sent.sender,
            sentAt: Date(timeIntervalSince1970: Double(send.recordedAt) / 1_000_000),
            recipients: Int(counts.recipients),
            answered: Int(counts.answered), withdrawn: Int(counts.withdrawn), pending: Int(counts.pending))
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
