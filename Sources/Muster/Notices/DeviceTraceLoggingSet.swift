import EventLog
import Foundation

/// A device's application turned trace logging on or off for itself (seed 004: "allow/disallow trace message
/// logging"), or went back to following the namespace's `traceLogging` setting.
public struct DeviceTraceLoggingSet: DomainEvent, Hashable, Codable {
    public static let type = "DeviceTraceLoggingSet"
    public static let schemaVersion: UInt16 = 1

    public var user: String
    public var deviceId: String
    /// On or off for this device; nil: as the namespace's `traceLogging` setting says.
    public var enabled: Bool?
}

extension DeviceTraceLoggingSet: DeviceRecord {}
