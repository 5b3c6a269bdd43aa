import EventLog

/// A time field, microseconds since 1970: stored as the integer, shown by the audit as an ISO 8601
/// time (`Timestamp`).
@propertyWrapper
public struct AuditTime: Sendable, Hashable, Codable {
    public var wrappedValue: Int64

    public init(wrappedValue: Int64) { self.wrappedValue = wrappedValue }

    public init(from decoder: any Decoder) throws {
        wrappedValue = try decoder.singleValueContainer().decode(Int64.self)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        if encoder.userInfo[BinaryCoding.userInfoKey] != nil {
            try container.encode(wrappedValue)
        } else {
            try container.encode(Timestamp.iso8601(microseconds: wrappedValue))
        }
    }
}
