/// A `date` or `datetime` field: the value is an ISO date or date-time string.
public struct DateField: Sendable, Hashable {
    /// Whether a time is collected too (`datetime`).
    public var includesTime: Bool
    /// ISO default, e.g. "1991-04-20" or "1991-04-20T09:30-07:00".
    public var defaultValue: String?
    /// Whether the user may submit nothing (value null); ignored when there is a default.
    public var optional: Bool

    init(_ type: FieldType, reading reader: inout PropertyReader) {
        includesTime = type == .datetime
        defaultValue = reader.string("default")
        optional = reader.bool("optional") ?? false
    }
}
