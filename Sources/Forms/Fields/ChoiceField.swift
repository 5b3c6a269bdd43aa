import MusterWire

/// A `droplist` or `radioButtons` field: the value is one of the enumerated values.
public struct ChoiceField: Sendable, Hashable {
    /// One entry of the complex form: a label shown and a value returned.
    public struct LabelledValue: Sendable, Hashable {
        /// What the user sees.
        public var label: String
        /// What the response carries: a string or a number.
        public var value: JSONValue
    }

    /// The two forms of `values`.
    public enum Values: Sendable, Hashable {
        /// `["Red", "Green", "Blue"]`.
        case simple([String])
        /// `[{"label": "Red", "value": 1}, …]`.
        case labelled([LabelledValue])

        /// The values a response may carry.
        public var returnable: [JSONValue] {
            switch self {
            case .simple(let strings): strings.map(JSONValue.string)
            case .labelled(let entries): entries.map(\.value)
            }
        }
    }

    /// The enumerated values; required.
    public var values: Values
    /// The initially selected value.
    public var defaultValue: JSONValue?
    /// Whether the user may select nothing (value null); ignored when there is a default.
    public var optional: Bool

    init(reading reader: inout PropertyReader) {
        values = Self.readValues(&reader)
        defaultValue = reader.value("default")
        optional = reader.bool("optional") ?? false
    }

    private static func readValues(_ reader: inout PropertyReader) -> Values {
        guard let raw = reader.value("values") else {
            reader.report("values", .missingProperty, "is required")
            return .simple([])
        }
        guard let elements = raw.arrayValue, !elements.isEmpty else {
            reader.report("values", .wrongType, "must be a non-empty array, not \(raw)")
            return .simple([])
        }
        let strings = elements.compactMap(\.stringValue)
        if strings.count == elements.count { return .simple(strings) }
        var entries: [LabelledValue] = []
        for (position, element) in elements.enumerated() {
            guard let object = element.objectValue, let label = object["label"]?.stringValue,
                let value = object["value"], value.stringValue != nil || value.doubleValue != nil
            else {
                reader.report(
                    "values[\(position)]", .wrongType,
                    "must be a string (simple form) or {\"label\": string, \"value\": string or number}, not \(element)"
                )
                continue
            }
            entries.append(LabelledValue(label: label, value: value))
        }
        return .labelled(entries)
    }
}
