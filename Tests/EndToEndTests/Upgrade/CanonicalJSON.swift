import Foundation

/// JSON rewritten with sorted keys, optionally with every UUID lower-cased, so two programs' answers compare as
/// values rather than as bytes.
enum CanonicalJSON {
    /// One JSON document, canonical.
    static func text(_ json: String, lowercasingUUIDs: Bool = false) throws -> String {
        var value = try JSONSerialization.jsonObject(with: Data(json.utf8), options: [.fragmentsAllowed])
        if lowercasingUUIDs { value = lowercased(value) }
        let data = try JSONSerialization.data(withJSONObject: value, options: [.sortedKeys, .fragmentsAllowed])
        return String(decoding: data, as: UTF8.self)
    }

    /// JSON lines (or one document), each canonical; empty lines skipped.
    static func lines(_ jsonLines: String, lowercasingUUIDs: Bool = false) throws -> [String] {
        try jsonLines.split(separator: "\n").map { try text(String($0), lowercasingUUIDs: lowercasingUUIDs) }
    }

    private static func lowercased(_ value: Any) -> Any {
        if let object = value as? [String: Any] { return object.mapValues(lowercased) }
        if let array = value as? [Any] { return array.map(lowercased) }
        if let string = value as? String, UUID(uuidString: string) != nil { return string.lowercased() }
        return value
    }
}
