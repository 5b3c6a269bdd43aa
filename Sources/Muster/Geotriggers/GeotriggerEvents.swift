import EventLog
import Foundation

/// A geotrigger was created or replaced.
public struct GeotriggerDefined: DomainEvent, Hashable, Codable {
    public static let type = "GeotriggerDefined"
    public static let schemaVersion: UInt16 = 1

    @StoredAsJSON public var geotrigger: Geotrigger
}

/// A geotrigger was removed.
public struct GeotriggerRemoved: DomainEvent, Hashable, Codable {
    public static let type = "GeotriggerRemoved"
    public static let schemaVersion: UInt16 = 1

    public var id: String
}

/// A device entered or exited one fence of a geotrigger; when the rule matched, the notification
/// info the message expression produced and the inbox message it went out as.
public struct GeotriggerNotified: DomainEvent, Hashable, Codable {
    public static let type = "GeotriggerNotified"
    public static let schemaVersion: UInt16 = 1

    public var user: String
    public var deviceId: String
    public var geotrigger: String
    public var fence: String
    /// `entered` or `exited`.
    public var notificationType: String
    public var at: Int64
    public var latitude: Double
    public var longitude: Double
    /// Whether the rule matched and a notification went out.
    public var fired: Bool
    /// Why not, or what was sent.
    public var reason: String
    public var message = ""
    public var actions: [String] = []
    /// The expression's other properties, as JSON text.
    public var properties = "{}"
    public var messageId: UUID?
}

/// A geotrigger's monitor was started: its fence crossings notify again.
public struct GeotriggerMonitorStarted: DomainEvent, Hashable, Codable {
    public static let type = "GeotriggerMonitorStarted"
    public static let schemaVersion: UInt16 = 1

    /// The geotrigger's id.
    public var id: String
}

/// A geotrigger's monitor was stopped: its fence crossings are recorded, and notify no one.
public struct GeotriggerMonitorStopped: DomainEvent, Hashable, Codable {
    public static let type = "GeotriggerMonitorStopped"
    public static let schemaVersion: UInt16 = 1

    /// The geotrigger's id.
    public var id: String
}
