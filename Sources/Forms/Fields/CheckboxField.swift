/// A `checkbox` field: the value is a boolean; always optional.
public struct CheckboxField: Sendable, Hashable {
    /// Initial state; default false.
    public var defaultValue: Bool
    /// Text beside the box; default "".
    public var checkboxLabel: String

    init(reading reader: inout PropertyReader) {
        defaultValue = reader.bool("default") ?? false
        checkboxLabel = reader.string("checkboxLabel") ?? ""
    }
}
