import EventLog
import Foundation
import MusterWire

/// One message on its way to one device: the outbox's row, from the send until a provider took it, it failed
/// for good, or its time to live ran out.
public struct Delivery: Sendable, Hashable, Codable {
    /// Where the delivery stands: the wire's status (`pending`, `delivered`, `failed`, `expired`).
    public typealias Status = DeliveryRecord.Status
    /// What the push is for: the wire's kind (`message`, `locationRequest`, `areaNotice`).
    public typealias Kind = DeliveryRecord.Kind

    /// How long a delivery is tried before it expires: 24 hours.
    public static let timeToLive: Int64 = 24 * 3600 * 1_000_000

    public var kind: Kind
    public var namespace: String
    /// The message's id, or the location request's.
    public var messageId: UUID
    public var user: String
    public var deviceId: String
    public var platform: PushTargetRegistered.Platform
    /// The push source chosen at the send: the one the sender named when it reaches this platform, else the
    /// platform's first by name.
    public var source: String
    public var status: Status
    /// Attempts made so far.
    public var attempts: Int
    /// When the message was sent, in microseconds since 1970.
    public var sentAt: Int64
    /// When the next attempt is due (pending), in microseconds since 1970.
    public var dueAt: Int64
    /// When it expires, in microseconds since 1970.
    public var expiresAt: Int64
    /// The position of the `PayloadSent` (or `LocationRequested`, `AreaNotificationHanded`) that made it.
    public var sentPosition: UInt64
    /// The last failed attempt's HTTP status and reason.
    public var lastStatus: Int?
    public var lastReason: String?
    /// The provider's id once delivered.
    public var providerId: String?
    /// When it was delivered, failed for good or expired, in microseconds since 1970.
    public var finishedAt: Int64?

    /// Why a delivery still pending when its message was withdrawn ended, expired.
    public static let forgone = "the message was withdrawn"

    /// Whether this is a message's delivery ended by its withdrawal while it waited, or while its attempt was on the
    /// way: an attempt on the way may still reach the device, and then the device is sent the withdrawal too.
    var wasForgone: Bool { kind == .message && status == .expired && lastReason == Self.forgone }

    /// The outbox key: `ns 0 messageId 0 deviceId 0`.
    var key: [UInt8] { Key.joined(namespace, messageId.uuidString, deviceId) }

    /// A new pending delivery, due at once, made by `event` (a send or a location request).
    init(_ kind: Kind, id: UUID, user: String, to target: OutboxProjection.Target, _ event: RecordedEvent) {
        self.kind = kind
        namespace = event.namespace
        messageId = id
        self.user = user
        deviceId = target.deviceId
        platform = target.platform
        source = target.source
        status = .pending
        attempts = 0
        sentAt = event.recordedAt
        dueAt = event.recordedAt
        expiresAt = event.recordedAt + Self.timeToLive
        sentPosition = event.position
    }

    /// The message's delivery to this device made anew as the alert that replaces the one the device shows: kind
    /// `withdrawal`, due at once, tried for `timeToLive` from `event` (the withdrawal, or the late outcome that
    /// showed the message reached the device after it). The message's send stays its `sentPosition`.
    func withdrawal(_ event: RecordedEvent) -> Delivery {
        var withdrawal = self
        withdrawal.kind = .withdrawal
        withdrawal.status = .pending
        withdrawal.attempts = 0
        withdrawal.sentAt = event.recordedAt
        withdrawal.dueAt = event.recordedAt
        withdrawal.expiresAt = event.recordedAt + Self.timeToLive
        withdrawal.lastStatus = nil
        withdrawal.lastReason = nil
        withdrawal.providerId = nil
        withdrawal.finishedAt = nil
        return withdrawal
    }
}
