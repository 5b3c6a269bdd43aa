import Foundation

/// A send as its sender follows it (`GET /api/v1/sends`, `muster sends`): what went to whom, and how many of its
/// messages were answered, withdrawn, or still wait. With `messages`, where each recipient's stands.
public struct SendOverview: Sendable, Hashable, Codable {
    /// The send's id: `sendId` in what `POST /api/v1/notifications` answered.
    public var sendId: UUID
    public var title: String
    public var body: String
    /// Who sent it.
    public var sender: String
    public var sentAt: Date
    /// How many people it went to.
    public var recipients: Int
    public var answered: Int
    /// Withdrawn by the sender, or as the recipient was removed.
    public var withdrawn: Int
    /// Still waiting for an answer.
    public var pending: Int
    /// Each recipient's message, in the send's order (a page of them, and only those in one state when asked);
    /// nil in a list of sends.
    public var messages: [Standing]?
    /// Where the next page of `messages` starts (the recipient's index in the send, to ask `from`); nil on the last.
    public var nextFrom: Int?

    /// One recipient's message, and where it stands.
    public struct Standing: Sendable, Hashable, Codable {
        public var user: String
        public var messageId: UUID
        public var state: State

        /// Creates a standing from its parts.
        public init(user: String, messageId: UUID, state: State) {
            self.user = user
            self.messageId = messageId
            self.state = state
        }
    }

    /// Where a message stands.
    public enum State: String, Sendable, Hashable, Codable, CaseIterable {
        case pending, answered, withdrawn
    }

    /// Creates an overview from its parts.
    public init(
        sendId: UUID, title: String, body: String, sender: String, sentAt: Date, recipients: Int, answered: Int,
        withdrawn: Int, pending: Int, messages: [Standing]? = nil, nextFrom: Int? = nil
    ) {
        self.sendId = sendId
        self.title = title
        self.body = body
        self.sender = sender
        self.sentAt = sentAt
        self.recipients = recipients
        self.answered = answered
        self.withdrawn = withdrawn
        self.pending = pending
        self.messages = messages
        self.nextFrom = nextFrom
    }
}

extension SendOverview {
    private enum CodingKeys: String, CodingKey {
        case sendId, title, body, sender, sentAt, recipients, answered, withdrawn, pending, messages, nextFrom
    }

    /// Encodes as the server writes it: ids in lower case, `messages` left out of a list's, `nextFrom` of a last page.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(sendId.uuidString.lowercased(), forKey: .sendId)
        try container.encode(title, forKey: .title)
        try container.encode(body, forKey: .body)
        try container.encode(sender, forKey: .sender)
        try container.encode(sentAt, forKey: .sentAt)
        try container.encode(recipients, forKey: .recipients)
        try container.encode(answered, forKey: .answered)
        try container.encode(withdrawn, forKey: .withdrawn)
        try container.encode(pending, forKey: .pending)
        try container.encodeIfPresent(messages, forKey: .messages)
        try container.encodeIfPresent(nextFrom, forKey: .nextFrom)
    }
}

extension SendOverview.Standing {
    private enum CodingKeys: String, CodingKey { case user, messageId, state }

    /// Encodes as the server writes it: the message id in lower case.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(user, forKey: .user)
        try container.encode(messageId.uuidString.lowercased(), forKey: .messageId)
        try container.encode(state, forKey: .state)
    }
}

/// What withdrawing the rest of a send did (`POST /api/v1/sends/{id}/withdraw`, `muster sends withdraw`): how many of
/// its messages, those not answered yet, it withdrew.
public struct SendWithdrawal: Sendable, Hashable, Codable {
    public var sendId: UUID
    public var withdrawn: Int

    /// Creates a withdrawal from its parts.
    public init(sendId: UUID, withdrawn: Int) {
        self.sendId = sendId
        self.withdrawn = withdrawn
    }

    private enum CodingKeys: String, CodingKey { case sendId, withdrawn }

    /// Encodes as the server writes it: the id in lower case.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(sendId.uuidString.lowercased(), forKey: .sendId)
        try container.encode(withdrawn, forKey: .withdrawn)
    }
}
