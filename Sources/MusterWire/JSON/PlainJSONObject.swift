/// A request body the server reads without Foundation's `JSONDecoder` when it is plain. Where `init(plainJSON:)`
/// gives a value it is the one the decoder gives; nil sends the body to the decoder, which reads it or refuses it
/// with its own errors.
public protocol PlainJSONDecodable: Decodable {
    init?(plainJSON bytes: [UInt8])
}

/// A top-level JSON object read by `JSONScanner` for a `PlainJSONDecodable` body: only an object whose members are
/// all among those allowed, each once, with no `\u` escape anywhere (one may spell a lone surrogate, which the
/// decoder refuses and `JSONValue` would replace).
struct PlainJSONObject {
    private let bytes: [UInt8]
    private var members: [String: Range<Int>] = [:]

    init?(_ bytes: [UInt8], allowed: Set<String>) {
        if bytes.indices.dropLast().contains(where: {
            bytes[$0] == UInt8(ascii: "\\") && bytes[$0 + 1] == UInt8(ascii: "u")
        }) {
            return nil
        }
        guard let document = try? JSONScanner.scan(bytes), document.isObject,
            document.members.allSatisfy({ allowed.contains($0.key) })
        else { return nil }
        self.bytes = bytes
        for member in document.members {
            guard members.updateValue(member.value, forKey: member.key) == nil else { return nil }
        }
    }

    /// The member's value; nil when the object has no such member.
    func value(_ key: String) -> JSONValue? {
        members[key].map { JSONValue(scanned: bytes, range: $0) }
    }

    /// Whether the member is missing or `null`, which the decoder reads alike as an optional's nil.
    func isAbsent(_ key: String) -> Bool {
        guard let range = members[key] else { return true }
        return bytes[range].elementsEqual("null".utf8)
    }

    /// The integer the member's literal (`-?[0-9]+`) spells, when it is one and fits an `Int`.
    func integer(_ key: String) -> Int? {
        guard let range = members[key] else { return nil }
        let text = bytes[range]
        let digits = text.first == UInt8(ascii: "-") ? text.dropFirst() : text
        guard !digits.isEmpty, digits.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) else {
            return nil
        }
        return Int(String(decoding: text, as: UTF8.self))
    }

    /// The member's number, when it is a finite one (the decoder refuses one too large for a `Double`).
    func number(_ key: String) -> Double? {
        guard case .number(let number) = value(key), number.double.isFinite else { return nil }
        return number.double
    }
}
