import EventLog
import Foundation
import MusterWire

/// One person's copy of a sent payload, waiting in their inbox (the seed's ArsPayloadMessage).
public struct PayloadMessage: Sendable, Hashable {
    public var messageId: UUID
    public var title: String
    public var body: String
    /// When it was sent: microseconds since 1970, from the store's clock.
    public var sentAt: Int64
    public var responseTopic: String
    /// Position of the `PayloadSent` event that carries the payload.
    public var position: UInt64

    public init(
        messageId: UUID, title: String, body: String, sentAt: Int64, responseTopic: String, position: UInt64
    ) {
        self.messageId = messageId
        self.title = title
        self.body = body
        self.sentAt = sentAt
        self.responseTopic = responseTopic
        self.position = position
    }

    /// `sentAt` as a date.
    public var sentDate: Date { Date(timeIntervalSince1970: Double(sentAt) / 1_000_000) }

    func encode(into w: inout ByteWriter) {
        w.write(messageId)
        w.write(title)
        w.write(body)
        w.write(signed: sentAt)
        w.write(responseTopic)
        w.write(varint: position)
    }

    init(from r: inout ByteReader) throws {
        messageId = try r.readUUID("message id")
        title = try r.readString("title")
        body = try r.readString("body")
        sentAt = try r.readSigned("sent at")
        responseTopic = try r.readString("response topic")
        position = try r.readVarint("position")
    }
}

/// A message as the recipient's device fetches it: the inbox record plus the payload and who sent it.
public struct StoredMessage: Sendable, Hashable {
    public var message: PayloadMessage
    public var sender: String
    public var source: String?
    /// The payload's JSON text: exactly as sent, or for an indirect one (`payloadName`) the named
    /// payload with the sent properties applied over it.
    public var payload: Data
    /// The payload's JSON text exactly as sent.
    public var sentPayload: Data
}

extension InboxItem {
    /// The inbox record as the wire shows it.
    public init(_ message: PayloadMessage) {
        self.init(
            messageId: message.messageId, title: message.title, body: message.body, sentAt: message.sentDate,
            responseTopic: message.responseTopic)
    }
}

extension Message {
    /// The stored message as the device fetches it: the payload as the device shows it.
    public init(_ stored: StoredMessage) throws {
        self.init(
            messageId: stored.message.messageId, title: stored.message.title, body: stored.message.body,
            sentAt: stored.message.sentDate, sender: stored.sender, source: stored.source,
            payload: try JSONValue(json: stored.payload))
    }
}
