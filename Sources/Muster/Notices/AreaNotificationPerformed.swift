import EventLog
import Foundation

/// The application had the server perform a handed notice's default action: the notification went to the
/// user as an inbox message, or the server notification URL was called and the rule went on.
public struct AreaNotificationPerformed: DomainEvent, Hashable, Codable {
    public static let type = "AreaNotificationPerformed"
    public static let schemaVersion: UInt16 = 1

    public var noticeId: UUID
    public var user: String
    public var deviceId: String
    /// The inbox message the notification went out as (`notifyUser`).
    public var messageId: UUID?
    /// The URL the server calls (`notifyServer`).
    public var serverURL: String?
}
