import EventLog
import Foundation

/// The application dealt with a handed notice itself (or dropped it): nothing is sent.
public struct AreaNotificationDismissed: DomainEvent, Hashable, Codable {
    public static let type = "AreaNotificationDismissed"
    public static let schemaVersion: UInt16 = 1

    public var noticeId: UUID
    public var user: String
    public var deviceId: String
}

/// A record kept in its device's stream (`device/<deviceId>`).
protocol DeviceRecord {
    var deviceId: String { get }
}

extension AreaNotificationPerformed: DeviceRecord {}
extension AreaNotificationDismissed: DeviceRecord {}
