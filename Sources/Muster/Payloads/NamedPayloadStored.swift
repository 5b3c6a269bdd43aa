import EventLog
import Forms
import Foundation
import MusterWire

/// A payload stored under a name (the seed's ArsRCSPayload); storing the same name again replaces it.
public struct NamedPayloadStored: DomainEvent, Hashable, Codable {
    public static let type = "NamedPayloadStored"
    public static let schemaVersion: UInt16 = 1

    public var name: String
    /// The payload's JSON text exactly as given.
    @JSONText public var payload: [UInt8]
}
