/// An `inputInteger` or `inputReal` field: the value is a number in `minValue...maxValue`.
public struct NumberField: Sendable, Hashable {
    /// The widget: a text input or a slider.
    public enum Flavor: String, Sendable, Hashable, CaseIterable {
        /// A text input or a slider.
        case text, slider
    }

    /// Whether only integers are accepted (`inputInteger`).
    public var isInteger: Bool
    /// The widget; default text.
    public var flavor: Flavor
    /// Smallest allowed value; default 0.
    public var minValue: Double
    /// Largest allowed value; default 100.
    public var maxValue: Double
    /// Units shown beside a text input; default "".
    public var units: String
    /// Hint in an empty text input; default "".
    public var placeholder: String
    /// The initial value.
    public var defaultValue: Double?
    /// Whether a text input may be left empty (value null); ignored for sliders and when there is a default.
    public var optional: Bool

    /// The value a slider starts at: the default, else `minValue`.
    public var sliderStart: Double { defaultValue ?? minValue }

    init(_ type: FieldType, reading reader: inout PropertyReader) {
        isInteger = type == .inputInteger
        flavor = reader.word("flavor", as: Flavor.self) ?? .text
        minValue = reader.number("minValue") ?? 0
        maxValue = reader.number("maxValue") ?? 100
        units = reader.string("units") ?? ""
        placeholder = reader.string("placeholder") ?? ""
        defaultValue = reader.number("default")
        optional = reader.bool("optional") ?? false
    }
}
