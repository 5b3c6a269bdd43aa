import Foundation

/// What sending a notification did: one message per recipient.
public struct SentNotification: Sendable, Hashable, Codable {
    /// The send's id: `GET /api/v1/sends/{id}` says where its messages stand. Nil from a server before it.
    public var sendId: UUID?
    /// The messages created, one per recipient.
    public var messageIds: [UUID]
    /// The usernames the notification went to (groups expanded, duplicates removed).
    public var recipients: [String]
    /// Per recipient's MQTT device, the payload fields its DialogMessage cannot carry; empty when every field fits
    /// or no recipient has an MQTT device. The message stays in the inbox for the recipient's other devices.
    public var notCarried: [NotCarried]
    /// What the app will ignore in the payload (a field type it does not know, seed 000), one line each; nil (left
    /// out) when nothing.
    public var warnings: [String]?

    /// Creates a result from its parts.
    public init(
        messageIds: [UUID], recipients: [String], notCarried: [NotCarried] = [], warnings: [String]? = nil,
        sendId: UUID? = nil
    ) {
        self.sendId = sendId
        self.messageIds = messageIds
        self.recipients = recipients
        self.notCarried = notCarried
        self.warnings = warnings
    }

    /// A payload field one recipient's MQTT device cannot be shown, and why.
    public struct NotCarried: Sendable, Hashable, Codable {
        /// The recipient.
        public var user: String
        /// The recipient's MQTT device (its `iPhoneID`).
        public var deviceId: String
        /// The field left out.
        public var field: FieldReference
        /// Why the DialogMessage cannot carry it.
        public var reason: String

        /// Creates a report from its parts.
        public init(user: String, deviceId: String, field: FieldReference, reason: String) {
            self.user = user
            self.deviceId = deviceId
            self.field = field
            self.reason = reason
        }
    }

    /// A payload field by its position in `fields` (from 0), its `id` and its `type` as written.
    public struct FieldReference: Sendable, Hashable, Codable {
        public var index: Int
        public var id: String?
        public var type: String?

        /// Creates a reference from its parts.
        public init(index: Int, id: String?, type: String?) {
            self.index = index
            self.id = id
            self.type = type
        }
    }

    private enum CodingKeys: String, CodingKey { case sendId, messageIds, recipients, notCarried, warnings }

    /// Reads a result; `notCarried` is empty when absent (servers before MQTT), `sendId` nil (servers before it).
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        sendId = try container.decodeIfPresent(UUID.self, forKey: .sendId)
        messageIds = try container.decode([UUID].self, forKey: .messageIds)
        recipients = try container.decode([String].self, forKey: .recipients)
        notCarried = try container.decodeIfPresent([NotCarried].self, forKey: .notCarried) ?? []
        warnings = try container.decodeIfPresent([String].self, forKey: .warnings)
    }

    /// Encodes as the server writes it: ids in lower case.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encodeIfPresent(sendId?.uuidString.lowercased(), forKey: .sendId)
        try container.encode(messageIds.map { $0.uuidString.lowercased() }, forKey: .messageIds)
        try container.encode(recipients, forKey: .recipients)
        try container.encode(notCarried, forKey: .notCarried)
        try container.encodeIfPresent(warnings, forKey: .warnings)
    }
}
