import EventLog
import Foundation
import MusterWire

/// A field holding JSON text as given (a payload, a published document): stored as its bytes,
/// shown by the audit as the JSON it is (or as a string when it does not parse).
@propertyWrapper
public struct JSONText: Sendable, Hashable, Codable {
    public var wrappedValue: [UInt8]

    public init(wrappedValue: [UInt8]) { self.wrappedValue = wrappedValue }

    public init(from decoder: any Decoder) throws {
        wrappedValue = try decoder.singleValueContainer().decode([UInt8].self)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        if encoder.userInfo[BinaryCoding.userInfoKey] != nil {
            try container.encode(wrappedValue)
        } else if let json = try? JSONValue(json: Data(wrappedValue)) {
            try container.encode(json)
        } else {
            try container.encode(String(decoding: wrappedValue, as: UTF8.self))
        }
    }
}
