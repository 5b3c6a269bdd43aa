import Foundation

/// The body of `POST /api/v1/withdrawals`: the messages to withdraw, all or none.
public struct WithdrawalBody: Sendable, Hashable, Codable {
    /// The messages' ids (a send's `messageIds`), 1 to 10,000.
    public var messageIds: [UUID]

    /// Creates a body from its parts.
    public init(messageIds: [UUID]) { self.messageIds = messageIds }
}

/// What `POST /api/v1/withdrawals` and `muster withdraw` answer: the messages withdrawn, in the order given.
public struct MessagesWithdrawn: Sendable, Hashable, Codable {
    public var withdrawn: [UUID]

    /// Creates an answer from its parts.
    public init(withdrawn: [UUID]) { self.withdrawn = withdrawn }

    private enum CodingKeys: String, CodingKey { case withdrawn }

    /// Encodes as the server writes it: ids in lower case.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(withdrawn.map { $0.uuidString.lowercased() }, forKey: .withdrawn)
    }
}
