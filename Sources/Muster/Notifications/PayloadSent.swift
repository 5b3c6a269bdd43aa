import EventLog
import Forms
import Foundation
import MusterWire

/// A form payload sent to people (the `Notification.sendPayload` family): one message per recipient.
public struct PayloadSent: DomainEvent, Hashable {
    public static let type = "PayloadSent"
    public static let schemaVersion: UInt16 = 1

    /// One person the payload went to and the id of their copy of the message.
    public struct Recipient: Sendable, Hashable, Encodable {
        public var user: String
        public var messageId: UUID

        public init(user: String, messageId: UUID) {
            self.user = user
            self.messageId = messageId
        }
    }

    /// Who sent it.
    public var sender: String
    public var title: String
    public var body: String
    /// The push source named by the sender (the seed's PUSH_NOTIF source), if any.
    public var source: String?
    /// The payload's JSON text exactly as given.
    public var payload: [UInt8]
    /// The payload's `responseTopic`.
    public var responseTopic: String
    /// In the order they were named, duplicates removed.
    public var recipients: [Recipient]

    public init(
        sender: String, title: String, body: String, source: String?, payload: [UInt8], responseTopic: String,
        recipients: [Recipient]
    ) {
        self.sender = sender
        self.title = title
        self.body = body
        self.source = source
        self.payload = payload
        self.responseTopic = responseTopic
        self.recipients = recipients
    }

    public func encode(into w: inout ByteWriter) {
        w.write(sender)
        w.write(title)
        w.write(body)
        w.write(source ?? "")
        w.write(bytes: payload)
        w.write(responseTopic)
        w.write(varint: UInt64(recipients.count))
        for recipient in recipients {
            w.write(recipient.user)
            w.write(recipient.messageId)
        }
    }

    public init(from r: inout ByteReader) throws {
        sender = try r.readString("sender")
        title = try r.readString("title")
        body = try r.readString("body")
        let source = try r.readString("source")
        self.source = source.isEmpty ? nil : source
        payload = try r.readBytes("payload")
        responseTopic = try r.readString("response topic")
        let count = try r.readVarint("recipient count")
        guard count <= UInt64(r.remaining) else {
            throw StoreError(.corrupt, "PayloadSent declares \(count) recipients")
        }
        recipients = try (0..<count).map { _ in
            Recipient(user: try r.readString("recipient"), messageId: try r.readUUID("message id"))
        }
    }

    /// The audit shape embeds the payload as JSON.
    private enum CodingKeys: String, CodingKey { case sender, title, body, source, payload, responseTopic, recipients }
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(sender, forKey: .sender)
        try c.encode(title, forKey: .title)
        try c.encode(body, forKey: .body)
        try c.encodeIfPresent(source, forKey: .source)
        if let json = try? JSONValue(json: Data(payload)) {
            try c.encode(json, forKey: .payload)
        } else {
            try c.encode(String(decoding: payload, as: UTF8.self), forKey: .payload)
        }
        try c.encode(responseTopic, forKey: .responseTopic)
        try c.encode(recipients, forKey: .recipients)
    }
}
