import EventLog
import Forms
import Foundation
import MusterWire

/// A form payload sent to people (the `Notification.sendPayload` family): one message per recipient.
public struct PayloadSent: DomainEvent, Hashable, Codable {
    public static let type = "PayloadSent"
    public static let schemaVersion: UInt16 = 3

    /// One person the payload went to and the id of their copy of the message.
    public struct Recipient: Sendable, Hashable, Codable {
        public var user: String
        public var messageId: UUID
    }

    /// Who sent it.
    public var sender: String
    public var title: String
    public var body: String
    /// The push source named by the sender (the seed's PUSH_NOTIF source), if any.
    public var source: String?
    /// The payload's JSON text exactly as given.
    @JSONText public var payload: [UInt8]
    /// The payload's `responseTopic`.
    public var responseTopic: String
    /// In the order they were named, duplicates removed.
    public var recipients: [Recipient]
    /// What the sender set on the DialogMessage of the recipients' MQTT devices (schema 2); nil: nothing.
    public var mqtt: DialogSettings?

    /// The sender's DialogMessage settings (seed 001's `SwitchToTab`, `SwitchDelay`, `AlertCode`, `FlashDuration`,
    /// and the input fields sent with `InstantSender`), as `DialogSenderSettings` checked them.
    public struct DialogSettings: Sendable, Hashable, Codable {
        public var switchToTab: String?
        public var switchDelay: Int?
        public var alertCode: Int?
        public var flashDuration: Int?
        /// The ids of the input fields sent with `InstantSender: true` (schema 3; none before).
        public var instantSender: [String] = []
    }
}
