import Foundation

extension AnswerBody {
    /// The members a plain answer may have.
    private static let plainMembers: Set<String> = ["deviceId", "deviceName", "submitValue", "values", "responseId"]

    /// Reads an answer without Foundation's `JSONDecoder` when it is plain: an object with `deviceId` and `values`,
    /// at most `deviceName`, `submitValue` (an integer literal) and `responseId` (a UUID) besides, each member once,
    /// no `\u` escape and no number too large for a `Double`. Nil for anything else — a `location`, an unknown or
    /// mistyped member, text that is not JSON —, which the decoder then reads or refuses with its own errors. Where
    /// it gives an answer it is the one the decoder gives.
    ///
    /// The answer routes are the busiest writes; the decoder took 13 % of their CPU (bench http-submission).
    public init?(plainJSON bytes: [UInt8]) {
        // A `\u` escape may spell a lone surrogate, which the decoder refuses and the builder would replace.
        if bytes.indices.dropLast().contains(where: {
            bytes[$0] == UInt8(ascii: "\\") && bytes[$0 + 1] == UInt8(ascii: "u")
        }) {
            return nil
        }
        guard let document = try? JSONScanner.scan(bytes), document.isObject,
            document.members.allSatisfy({ Self.plainMembers.contains($0.key) })
        else { return nil }
        var members: [String: Range<Int>] = [:]
        for member in document.members {
            guard members.updateValue(member.value, forKey: member.key) == nil else { return nil }
        }
        func value(_ key: String) -> JSONValue? { members[key].map { JSONValue(scanned: bytes, range: $0) } }
        guard case .string(let deviceId) = value("deviceId"), let values = value("values"), values.isFinite
        else { return nil }
        self.init(deviceId: deviceId, values: values)
        switch value("deviceName") {
        case nil, .null: break
        case .string(let name): deviceName = name
        default: return nil
        }
        if let range = members["submitValue"], !Self.isNull(bytes, range) {
            guard let number = Self.integer(bytes, range) else { return nil }
            submitValue = number
        }
        switch value("responseId") {
        case nil, .null: break
        case .string(let text):
            guard let id = UUID(uuidString: text) else { return nil }
            responseId = id
        default: return nil
        }
    }

    private static func isNull(_ bytes: [UInt8], _ range: Range<Int>) -> Bool {
        bytes[range].elementsEqual("null".utf8)
    }

    /// The integer an integer literal (`-?[0-9]+`) spells, when it fits an `Int`.
    private static func integer(_ bytes: [UInt8], _ range: Range<Int>) -> Int? {
        let text = bytes[range]
        let digits = text.first == UInt8(ascii: "-") ? text.dropFirst() : text
        guard !digits.isEmpty, digits.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) else {
            return nil
        }
        return Int(String(decoding: text, as: UTF8.self))
    }
}
