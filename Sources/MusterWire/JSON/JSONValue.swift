import Foundation

/// Any JSON value: a form payload, the values of a response, a response's `state`, a published document.
///
/// Write one with literals: `["color": "Green", "count": 3, "tags": ["a", "b"], "note": .null]`. (Not `nil`:
/// a `JSONValue` that took `nil` would make `JSONValue?` ambiguous between absent and `null`.)
public enum JSONValue: Sendable, Hashable {
    /// A JSON object; key order is not significant.
    case object([String: JSONValue])
    /// A JSON array.
    case array([JSONValue])
    /// A JSON string.
    case string(String)
    /// A JSON number: a `Double`, and an integer beyond ±2^53 exactly (see `JSONNumber`).
    case number(JSONNumber)
    /// `true` or `false`.
    case bool(Bool)
    /// `null`.
    case null

    /// The number `value`: `.number(2.5)`, `.number(Double(count))`.
    public static func number(_ value: Double) -> JSONValue { .number(JSONNumber(value)) }

    /// The compact JSON text of this value, keys sorted.
    public func jsonData() -> Data {
        // Every case maps to a JSON value; only a non-finite number could fail, and it is written as null.
        (try? MusterJSON.encoder().encode(self)) ?? Data("null".utf8)
    }

    /// The member named `key`, when this is an object that has it.
    public subscript(key: String) -> JSONValue? {
        if case .object(let members) = self { return members[key] }
        return nil
    }

    /// The element at `index`, when this is an array that long.
    public subscript(index: Int) -> JSONValue? {
        if case .array(let elements) = self, elements.indices.contains(index) { return elements[index] }
        return nil
    }

    /// The string, when this is a string.
    public var stringValue: String? {
        if case .string(let text) = self { return text }
        return nil
    }

    /// The number, when this is a number.
    public var doubleValue: Double? {
        if case .number(let number) = self { return number.double }
        return nil
    }

    /// The integer, when this is a number without a fractional part that fits in an `Int`.
    public var intValue: Int? {
        if case .number(let number) = self { return number.int }
        return nil
    }

    /// The boolean, when this is `true` or `false`.
    public var boolValue: Bool? {
        if case .bool(let flag) = self { return flag }
        return nil
    }

    /// The members, when this is an object.
    public var objectValue: [String: JSONValue]? {
        if case .object(let members) = self { return members }
        return nil
    }

    /// The elements, when this is an array.
    public var arrayValue: [JSONValue]? {
        if case .array(let elements) = self { return elements }
        return nil
    }

    /// Whether this is `null`.
    public var isNull: Bool { self == .null }

    /// A short name of the JSON kind, for error messages.
    public var kindName: String {
        switch self {
        case .object: "an object"
        case .array: "an array"
        case .string: "a string"
        case .number: "a number"
        case .bool: "a boolean"
        case .null: "null"
        }
    }
}

extension JSONValue: Codable {
    /// Decodes any JSON value.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let flag = try? container.decode(Bool.self) {
            self = .bool(flag)
        } else if let number = try? container.decode(JSONNumber.self) {
            self = .number(number)
        } else if let text = try? container.decode(String.self) {
            self = .string(text)
        } else if let elements = try? container.decode([JSONValue].self) {
            self = .array(elements)
        } else {
            self = .object(try container.decode([String: JSONValue].self))
        }
    }

    /// Encodes the value; integral numbers are written without a fraction (see `JSONNumber`).
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .object(let members): try container.encode(members)
        case .array(let elements): try container.encode(elements)
        case .string(let text): try container.encode(text)
        case .number(let number): try container.encode(number)
        case .bool(let flag): try container.encode(flag)
        case .null: try container.encodeNil()
        }
    }
}

extension JSONValue: CustomStringConvertible {
    /// The compact JSON text of the value.
    public var description: String { String(decoding: jsonData(), as: UTF8.self) }
}

extension JSONValue: ExpressibleByStringLiteral {
    /// A JSON string.
    public init(stringLiteral value: String) { self = .string(value) }
}

extension JSONValue: ExpressibleByIntegerLiteral {
    /// A JSON number.
    public init(integerLiteral value: Int) { self = .number(JSONNumber(value)) }
}

extension JSONValue: ExpressibleByFloatLiteral {
    /// A JSON number.
    public init(floatLiteral value: Double) { self = .number(value) }
}

extension JSONValue: ExpressibleByBooleanLiteral {
    /// `true` or `false`.
    public init(booleanLiteral value: Bool) { self = .bool(value) }
}

extension JSONValue: ExpressibleByArrayLiteral {
    /// A JSON array.
    public init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
}

extension JSONValue: ExpressibleByDictionaryLiteral {
    /// A JSON object; a repeated key keeps its last value.
    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        self = .object(Dictionary(elements, uniquingKeysWith: { _, last in last }))
    }
}

extension JSONValue {
    /// Whether every number in it is finite (a literal too large for a `Double` is not).
    var isFinite: Bool {
        switch self {
        case .number(let number): number.double.isFinite
        case .array(let elements): elements.allSatisfy(\.isFinite)
        case .object(let members): members.values.allSatisfy(\.isFinite)
        case .null, .bool, .string: true
        }
    }
}
