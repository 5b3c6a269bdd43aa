import EventLog
import Foundation

/// A field whose value is a document of its own (an area, a geotrigger): stored as its JSON with
/// sorted keys, so it can grow fields without a new event schema; shown by the audit as that JSON.
@propertyWrapper
public struct StoredAsJSON<Value: Codable & Hashable & Sendable>: Sendable, Hashable, Codable {
    public var wrappedValue: Value

    public init(wrappedValue: Value) { self.wrappedValue = wrappedValue }

    public init(from decoder: any Decoder) throws {
        guard decoder.userInfo[BinaryCoding.userInfoKey] != nil else {
            wrappedValue = try Value(from: decoder)
            return
        }
        let json = try decoder.singleValueContainer().decode([UInt8].self)
        wrappedValue = try JSONDecoder().decode(Value.self, from: Data(json))
    }

    public func encode(to encoder: any Encoder) throws {
        guard encoder.userInfo[BinaryCoding.userInfoKey] != nil else { return try wrappedValue.encode(to: encoder) }
        let json = JSONEncoder()
        json.outputFormatting = [.sortedKeys]
        var container = encoder.singleValueContainer()
        try container.encode(Array(try json.encode(wrappedValue)))
    }
}
