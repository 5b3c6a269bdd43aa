import EventLog
import Forms
import Foundation
import MusterWire

/// Someone published a JSON document on a topic (an operator, a rule, an integration): listeners of
/// the topic receive it as is, next to the response objects published there.
public struct TopicPublished: DomainEvent, Hashable {
    public static let type = "TopicPublished"
    public static let schemaVersion: UInt16 = 1

    public var topic: String
    /// The published JSON text, compact.
    public var document: [UInt8]

    public init(topic: String, document: [UInt8]) {
        self.topic = topic
        self.document = document
    }

    public func encode(into w: inout ByteWriter) {
        w.write(topic)
        w.write(bytes: document)
    }

    public init(from r: inout ByteReader) throws {
        topic = try r.readString("topic")
        document = try r.readBytes("document")
    }

    private enum CodingKeys: String, CodingKey { case topic, document }
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(topic, forKey: .topic)
        if let json = try? JSONValue(json: Data(document)) {
            try c.encode(json, forKey: .document)
        } else {
            try c.encode(String(decoding: document, as: UTF8.self), forKey: .document)
        }
    }
}
