import EventLog
import Foundation

extension Notifications {
    /// Withdraws messages not answered yet, in one append: each leaves its recipient's inbox, can no longer be read
    /// or answered by them, and the pushes still waiting to carry it are not sent (one on its way may still arrive).
    /// Nothing is written when any of them cannot be: `.notFound` for a message sent to nobody of the namespace,
    /// `.conflict` for one answered or withdrawn already. Returns each message's recipient, in the order given.
    @discardableResult
    public func withdraw(_ messageIds: [UUID], namespace: String = Names.defaultNamespace, actor: String = "system")
        async throws -> [(messageId: UUID, user: String)]
    {
        try Names.validate(namespace, as: "namespace")
        return try await log.perform { scope in
            let inbox = try scope.inbox
            var withdrawn: [(messageId: UUID, user: String)] = []
            for id in messageIds where !withdrawn.contains(where: { $0.messageId == id }) {
                let text = id.uuidString.lowercased()
                guard let (user, addressed) = try inbox.recipient(of: id, namespace: namespace) else {
                    throw MusterError(
                        .notFound, "no message \(text) was sent in namespace \(namespace)", field: "messageId")
                }
                switch addressed.state {
                case .pending: break
                case .answered:
                    throw MusterError(
                        .conflict, "message \(text) was answered already by \(user); its answer stays",
                        field: "messageId")
                case .withdrawn:
                    throw MusterError(.conflict, "message \(text) was withdrawn already", field: "messageId")
                }
                try Self.appendWithdrawal(of: id, to: user, namespace, actor, in: scope)
                withdrawn.append((id, user))
            }
            return withdrawn
        }
    }

    /// Appends the withdrawal of message `id`, pending for `user`: the message's stream holds nothing else.
    static func appendWithdrawal(
        of id: UUID, to user: String, _ namespace: String, _ actor: String, in scope: WriteScope
    ) throws {
        try scope.append(
            AppendRequest(
                namespace: namespace, stream: Streams.message(id), expectedVersion: .noStream,
                events: [MessageWithdrawn(messageId: id, user: user).newEvent(actor: actor)]))
    }
}
