import MusterWire

/// One entry of a dialog's `InputFields`: a widget whose value the reply carries under `Key`.
public struct DialogInputField: Sendable, Hashable, Codable {
    /// The widgets of seed 001.
    public enum Kind: String, Sendable, Hashable, CaseIterable, Codable {
        /// A one-line text input.
        case textField = "TextField"
        /// A several-line text input.
        case textView = "TextView"
        /// A number typed in.
        case numberField = "NumberField"
        /// An on/off switch; its value is "True" or "False".
        case toggle = "Switch"
        /// A number picked on a slider between `MinimumValue` and `MaximumValue`.
        case slider = "Slider"
        /// A number stepped between `MinimumValue` and `MaximumValue`.
        case stepper = "Stepper"
    }

    /// What the user sees above the widget.
    public var label: String
    /// The member of the reply that carries the value.
    public var key: String
    /// The widget.
    public var type: Kind
    /// The starting value, typed as the seed's examples type it: a string for text, number fields and switches
    /// (`"42"`, `"False"`), a number for sliders and steppers.
    public var defaultValue: JSONValue?
    /// Whether changing the value publishes it at once, alone.
    public var instantSender: Bool?
    /// Whether the user must enter a value.
    public var required: Bool?
    /// The smallest value of a slider, stepper or number field.
    public var minimumValue: Double?
    /// The largest value of a slider, stepper or number field.
    public var maximumValue: Double?

    /// Creates an input field.
    public init(
        label: String, key: String, type: Kind, defaultValue: JSONValue? = nil, instantSender: Bool? = nil,
        required: Bool? = nil, minimumValue: Double? = nil, maximumValue: Double? = nil
    ) {
        self.label = label
        self.key = key
        self.type = type
        self.defaultValue = defaultValue
        self.instantSender = instantSender
        self.required = required
        self.minimumValue = minimumValue
        self.maximumValue = maximumValue
    }

    private enum CodingKeys: String, CodingKey {
        case label = "Label"
        case key = "Key"
        case type = "Type"
        case defaultValue = "DefaultValue"
        case instantSender = "InstantSender"
        case required = "Required"
        case minimumValue = "MinimumValue"
        case maximumValue = "MaximumValue"
    }

    /// Decodes the seed's shape.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        label = try container.decode(String.self, forKey: .label)
        key = try container.decode(String.self, forKey: .key)
        type = try container.decode(Kind.self, forKey: .type)
        defaultValue = try container.decodeIfPresent(JSONValue.self, forKey: .defaultValue)
        instantSender = try container.decodeIfPresent(Bool.self, forKey: .instantSender)
        required = try container.decodeIfPresent(Bool.self, forKey: .required)
        minimumValue = try container.decodeIfPresent(Double.self, forKey: .minimumValue)
        maximumValue = try container.decodeIfPresent(Double.self, forKey: .maximumValue)
    }

    /// Encodes the seed's shape; whole numbers without a fraction (`"MinimumValue": 1`, as the seed writes them).
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(label, forKey: .label)
        try container.encode(key, forKey: .key)
        try container.encode(type, forKey: .type)
        try container.encodeIfPresent(defaultValue, forKey: .defaultValue)
        try container.encodeIfPresent(instantSender, forKey: .instantSender)
        try container.encodeIfPresent(required, forKey: .required)
        try container.encodeIfPresent(minimumValue.map(JSONValue.number), forKey: .minimumValue)
        try container.encodeIfPresent(maximumValue.map(JSONValue.number), forKey: .maximumValue)
    }
}
