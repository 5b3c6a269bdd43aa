/// A `barcode` or `inputString` field: the value is a string.
public struct TextInputField: Sendable, Hashable {
    /// Hint shown before input ("Scan Barcode" for barcode, "" for inputString).
    public var placeholder: String
    /// The value assumed when the user enters nothing.
    public var defaultValue: String?
    /// Whether the user may submit nothing (value null); ignored when there is a default.
    public var optional: Bool

    init(_ type: FieldType, reading reader: inout PropertyReader) {
        placeholder = reader.string("placeholder") ?? (type == .barcode ? "Scan Barcode" : "")
        defaultValue = reader.string("default")
        optional = reader.bool("optional") ?? false
    }
}
