import MusterWire

/// One entry of a payload's `fields`: its common properties, its type-specific ones and its raw JSON.
public struct Field: Sendable, Hashable {
    /// Position in `fields`, from 0.
    public let index: Int
    /// The `type` as written; nil when missing.
    public let typeName: String?
    /// The type, when it is one of the 24 known types.
    public let type: FieldType?
    /// The `id`, the property name of the field's value in the response.
    public let id: String?
    /// The label and its styling.
    public let label: LabelStyle
    /// The type-specific properties.
    public let kind: FieldKind
    /// Every property as written, unknown ones included (they are kept, not interpreted).
    public let json: [String: JSONValue]
    /// Properties of the wrong type found while reading.
    let problems: [FormError]

    /// Reads field number `index` from its JSON object.
    public init(index: Int, json: [String: JSONValue]) {
        self.index = index
        self.json = json
        let id = json["id"]?.stringValue
        self.id = id
        let path = Self.path(index: index, id: id)
        var reader = PropertyReader(json, path: path)
        typeName = reader.string("type")
        type = typeName.flatMap(FieldType.init(rawValue:))
        // A sectionLabel ignores the four styling properties (seed 000), so their values are not checked either.
        label = type == .sectionLabel ? LabelStyle(text: reader.string("label")) : LabelStyle(reading: &reader)
        if let type {
            kind = FieldKind(type, hasID: id != nil, reading: &reader)
        } else {
            kind = .ignored(type: typeName)
        }
        if let raw = json["id"], !raw.isNull, raw.stringValue == nil {
            reader.report("id", .wrongType, "must be a string, not \(raw.kindName)")
        }
        problems = reader.problems
    }

    /// How errors name this field: `fields[3] (id "cb")` or `fields[3]`.
    public var path: String { Self.path(index: index, id: id) }

    /// Whether the field puts a value into the response's `values`: an input type with an `id`.
    public var producesValue: Bool {
        guard let type, id != nil else { return false }
        return type.requiresID || type == .map
    }

    /// The `submitValue`s this field's buttons declare.
    public var buttonValues: [Int] {
        switch kind {
        case .footerButton(let button), .inlineButton(let button): [button.value]
        case .buttonCluster(let cluster): cluster.buttons.map(\.value)
        default: []
        }
    }

    static func path(index: Int, id: String?) -> String {
        guard let id else { return "fields[\(index)]" }
        return "fields[\(index)] (id \"\(id)\")"
    }
}
