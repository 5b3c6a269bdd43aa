import Foundation

/// A value of the expression language: what literals, profile variables and functions produce.
public enum ArcadeValue: Sendable, Hashable {
    /// Arcade's `null`: an absent value.
    case null
    /// `true` or `false`.
    case boolean(Bool)
    /// Every number is a double, as in Arcade.
    case number(Double)
    /// A text (Arcade's string).
    case text(String)
    /// An instant, as returned by `Now()`.
    case date(Date)
    /// Key/value pairs in the order they were written.
    case dictionary(ArcadeDictionary)
    /// An ordered list of values.
    case array([ArcadeValue])

    /// The value's type as Arcade names it, for error messages: `Text`, `Number`, `Dictionary`…
    public var typeName: String {
        switch self {
        case .null: "Null"
        case .boolean: "Boolean"
        case .number: "Number"
        case .text: "Text"
        case .date: "Date"
        case .dictionary: "Dictionary"
        case .array: "Array"
        }
    }
}

/// A dictionary that keeps its keys in insertion order; lookups fall back to ignoring case, as
/// Arcade's feature attributes do.
public struct ArcadeDictionary: Sendable, Hashable {
    /// The pairs, in order, keys unique.
    public private(set) var entries: [Entry]

    /// One key and its value.
    public struct Entry: Sendable, Hashable {
        /// The key as written.
        public let key: String
        /// The value under the key.
        public let value: ArcadeValue
    }

    /// Creates a dictionary from pairs; a repeated key keeps its first position and its last value.
    public init(_ pairs: [(String, ArcadeValue)] = []) {
        entries = []
        for (key, value) in pairs { self[key] = value }
    }

    /// The keys in order.
    public var keys: [String] { entries.map(\.key) }

    /// The value under `key` (exact match first, then ignoring case); setting appends a new key.
    public subscript(key: String) -> ArcadeValue? {
        get {
            if let exact = entries.first(where: { $0.key == key }) { return exact.value }
            return entries.first(where: { $0.key.caseInsensitiveCompare(key) == .orderedSame })?.value
        }
        set {
            let position = entries.firstIndex(where: { $0.key == key })
            switch (position, newValue) {
            case (let index?, let value?): entries[index] = Entry(key: key, value: value)
            case (let index?, nil): entries.remove(at: index)
            case (nil, let value?): entries.append(Entry(key: key, value: value))
            case (nil, nil): break
            }
        }
    }
}

extension ArcadeValue: ExpressibleByStringLiteral, ExpressibleByFloatLiteral, ExpressibleByIntegerLiteral,
    ExpressibleByBooleanLiteral, ExpressibleByNilLiteral, ExpressibleByArrayLiteral,
    ExpressibleByDictionaryLiteral
{
    /// A text value.
    public init(stringLiteral value: String) { self = .text(value) }
    /// A number value.
    public init(floatLiteral value: Double) { self = .number(value) }
    /// A number value.
    public init(integerLiteral value: Int) { self = .number(Double(value)) }
    /// A boolean value.
    public init(booleanLiteral value: Bool) { self = .boolean(value) }
    /// `null`.
    public init(nilLiteral: ()) { self = .null }
    /// An array value.
    public init(arrayLiteral elements: ArcadeValue...) { self = .array(elements) }
    /// A dictionary value, keys in the order written.
    public init(dictionaryLiteral elements: (String, ArcadeValue)...) {
        self = .dictionary(ArcadeDictionary(elements))
    }
}

extension ArcadeDictionary: ExpressibleByDictionaryLiteral {
    /// A dictionary, keys in the order written.
    public init(dictionaryLiteral elements: (String, ArcadeValue)...) { self.init(elements) }
}
