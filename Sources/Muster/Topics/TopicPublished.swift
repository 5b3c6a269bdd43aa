import EventLog
import Forms
import Foundation
import MusterWire

/// Someone published a JSON document on a topic (an operator, a rule, an integration): listeners of
/// the topic receive it as is, next to the response objects published there.
public struct TopicPublished: DomainEvent, Hashable, Codable {
    public static let type = "TopicPublished"
    public static let schemaVersion: UInt16 = 1

    public var topic: String
    /// The published JSON text, compact.
    @JSONText public var document: [UInt8]
}
