/// One problem with a payload or a response: where it is, which rule it broke and why, as one line.
public struct FormError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Where the problem is, e.g. `fields[2] (id "cb").default` or `values.cb`.
    public let path: String
    /// The rule that was broken.
    public let rule: FormRule
    /// What is wrong, in words.
    public let message: String

    /// Creates a problem report.
    public init(path: String, rule: FormRule, message: String) {
        self.path = path
        self.rule = rule
        self.message = message
    }

    /// `path: message [rule]`.
    public var description: String { "\(path): \(message) [\(rule)]" }
}

/// The payload and response rules of seed 000; extensible without breaking callers.
public struct FormRule: Sendable, Hashable, CustomStringConvertible {
    private let name: String
    private init(_ name: String) { self.name = name }

    /// The rule's short name.
    public var description: String { name }

    /// The document is not JSON or not an object.
    public static let notJSON = FormRule("not-json")
    /// `responseTopic` is missing.
    public static let missingTopic = FormRule("missing-topic")
    /// `responseTopic` is not of the form `/a/b/c`.
    public static let badTopic = FormRule("bad-topic")
    /// `fields` is missing or not an array, or a field is not an object.
    public static let badFields = FormRule("bad-fields")
    /// A field has no `type`.
    public static let missingType = FormRule("missing-type")
    /// A field's `type` is not one of the 24 types (a warning: the app ignores the field).
    public static let unknownType = FormRule("unknown-type")
    /// An input field has no `id`.
    public static let missingID = FormRule("missing-id")
    /// Two fields share an `id`.
    public static let duplicateID = FormRule("duplicate-id")
    /// A property has the wrong JSON type.
    public static let wrongType = FormRule("wrong-type")
    /// A required property is missing.
    public static let missingProperty = FormRule("missing-property")
    /// A property is not one of its allowed words.
    public static let notAllowed = FormRule("not-allowed")
    /// `default` is not among `values`.
    public static let defaultNotInValues = FormRule("default-not-in-values")
    /// `minValue` is not less than `maxValue`.
    public static let badRange = FormRule("bad-range")
    /// A number lies outside `minValue...maxValue`.
    public static let outOfRange = FormRule("out-of-range")
    /// An integer was expected.
    public static let notInteger = FormRule("not-integer")
    /// A date or date-time is not in ISO format.
    public static let badDate = FormRule("bad-date")
    /// A colour is not `#rrggbb`, a hue 0...359 or a marker colour name.
    public static let badColour = FormRule("bad-colour")
    /// A location is neither GeoJSON Point nor longitude/latitude.
    public static let badLocation = FormRule("bad-location")
    /// Two buttons share a `value`.
    public static let duplicateButtonValue = FormRule("duplicate-button-value")
    /// The field type takes no `default` (a warning: it is ignored).
    public static let defaultIgnored = FormRule("default-ignored")
    /// A required response value is missing or null.
    public static let valueRequired = FormRule("value-required")
    /// A response value does not belong to any input field.
    public static let unexpectedValue = FormRule("unexpected-value")
    /// A response value is not one of the enumerated values.
    public static let notInValues = FormRule("not-in-values")
    /// A media value is not a document name of the field's kind.
    public static let badDocumentName = FormRule("bad-document-name")
    /// A media value names no document the responder uploaded (checked by the server, which knows the documents).
    public static let unknownDocument = FormRule("unknown-document")
    /// A media value's document is larger than the field's `maxSizeK`.
    public static let documentTooLarge = FormRule("document-too-large")
    /// A media value's recording lasts longer than the field's `maxDurationSeconds`, as its header tells.
    public static let documentTooLong = FormRule("document-too-long")
    /// `submitValue` is not a declared button value (or 0 without buttons).
    public static let badSubmitValue = FormRule("bad-submit-value")
    /// The response's `responseTopic` or `state` differs from the payload's.
    public static let mismatch = FormRule("mismatch")
}
