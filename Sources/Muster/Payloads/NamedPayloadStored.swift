import EventLog
import Forms
import Foundation
import MusterWire

/// A payload stored under a name (the seed's ArsRCSPayload); storing the same name again replaces it.
public struct NamedPayloadStored: DomainEvent, Hashable {
    public static let type = "NamedPayloadStored"
    public static let schemaVersion: UInt16 = 1

    public var name: String
    /// The payload's JSON text exactly as given.
    public var payload: [UInt8]

    public init(name: String, payload: [UInt8]) {
        self.name = name
        self.payload = payload
    }

    public func encode(into w: inout ByteWriter) {
        w.write(name)
        w.write(bytes: payload)
    }

    public init(from r: inout ByteReader) throws {
        name = try r.readString("payload name")
        payload = try r.readBytes("payload")
    }

    /// The audit shape embeds the payload as JSON.
    private enum CodingKeys: String, CodingKey { case name, payload }
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(name, forKey: .name)
        try c.encodeJSONText(payload, forKey: .payload)
    }
}

extension KeyedEncodingContainer {
    /// JSON text as embedded JSON, or as a string when it does not parse.
    mutating func encodeJSONText(_ bytes: [UInt8], forKey key: Key) throws {
        if let json = try? JSONValue(json: Data(bytes)) {
            try encode(json, forKey: key)
        } else {
            try encode(String(decoding: bytes, as: UTF8.self), forKey: key)
        }
    }
}
