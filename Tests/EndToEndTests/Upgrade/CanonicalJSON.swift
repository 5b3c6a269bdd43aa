import Foundation

/// JSON rewritten with sorted keys, optionally with every UUID lower-cased, so two programs' answers compare as
/// values rather than as bytes.
enum CanonicalJSON {
    /// One JSON document, canonical.
    /// - Parameter dropping: member names removed at every level (fields a newer release adds).
    static func text(_ json: String, lowercasingUUIDs: Bool = false, dropping: Set<String> = []) throws -> String {
        var value = try JSONSerialization.jsonObject(with: Data(json.utf8), options: [.fragmentsAllowed])
        if lowercasingUUIDs { value = lowercased(value) }
        if !dropping.isEmpty { value = removing(dropping, from: value) }
        let data = try JSONSerialization.data(withJSONObject: value, options: [.sortedKeys, .fragmentsAllowed])
        return String(decoding: data, as: UTF8.self)
    }

    /// JSON lines (or one document), each canonical; empty lines skipped.
    static func lines(_ jsonLines: String, lowercasingUUIDs: Bool = false, dropping: Set<String> = []) throws
        -> [String]
    {
        try jsonLines.split(separator: "\n").map {
            try text(String($0), lowercasingUUIDs: lowercasingUUIDs, dropping: dropping)
        }
    }

    private static func removing(_ names: Set<String>, from value: Any) -> Any {
        if let object = value as? [String: Any] {
            return object.filter { !names.contains($0.key) }.mapValues { removing(names, from: $0) }
        }
        if let array = value as? [Any] { return array.map { removing(names, from: $0) } }
        return value
    }

    private static func lowercased(_ value: Any) -> Any {
        if let object = value as? [String: Any] { return object.mapValues(lowercased) }
        if let array = value as? [Any] { return array.map(lowercased) }
        if let string = value as? String, UUID(uuidString: string) != nil { return string.lowercased() }
        return value
    }
}
