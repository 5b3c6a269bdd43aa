import Foundation

/// One message's (or location request's) delivery to one device, as `muster deliveries` and
/// `GET /api/v1/messages/{id}/deliveries` show it.
public struct DeliveryRecord: Sendable, Hashable, Codable {
    /// What the push is for.
    public enum Kind: String, Sendable, Hashable, Codable, CaseIterable {
        /// A sent message: a visible alert, and the message or its id.
        case message
        /// A location request: a silent push that wakes the app to publish where it is; `messageId` is the
        /// request's id.
        case locationRequest
        /// An area notification handed to the device's app: a visible alert for a user notification, a silent push
        /// for a server notification; `messageId` is the notice's id.
        case areaNotice
        /// A delivered message was withdrawn: an alert in place of its own (the same collapse id and tag), saying so;
        /// `messageId` is the message's.
        case withdrawal
    }

    /// Where a delivery stands.
    public enum Status: String, Sendable, Hashable, Codable, CaseIterable {
        /// Waiting for its next attempt (the first, or a retry).
        case pending
        /// A provider took it.
        case delivered
        /// Refused for good (an unregistered device, a push the provider will not take, no source left).
        case failed
        /// Its time to live ran out first.
        case expired
    }

    public var kind: Kind
    public var messageId: UUID
    public var user: String
    public var deviceId: String
    public var platform: PushTarget.Platform
    /// The push source chosen for it.
    public var source: String
    public var status: Status
    public var attempts: Int
    public var sentAt: Date
    /// When the next attempt is due (pending only).
    public var nextAttemptAt: Date?
    public var expiresAt: Date
    /// The last failed attempt's HTTP status and the provider's reason.
    public var lastStatus: Int?
    public var lastReason: String?
    /// The provider's id for the push, once delivered.
    public var providerId: String?
    /// When it was delivered, failed for good or expired.
    public var finishedAt: Date?

    /// Creates a record from its parts.
    public init(
        messageId: UUID, user: String, deviceId: String, platform: PushTarget.Platform, source: String,
        status: Status, attempts: Int, sentAt: Date, nextAttemptAt: Date?, expiresAt: Date, lastStatus: Int?,
        lastReason: String?, providerId: String?, finishedAt: Date?, kind: Kind = .message
    ) {
        self.kind = kind
        self.messageId = messageId
        self.user = user
        self.deviceId = deviceId
        self.platform = platform
        self.source = source
        self.status = status
        self.attempts = attempts
        self.sentAt = sentAt
        self.nextAttemptAt = nextAttemptAt
        self.expiresAt = expiresAt
        self.lastStatus = lastStatus
        self.lastReason = lastReason
        self.providerId = providerId
        self.finishedAt = finishedAt
    }
}
