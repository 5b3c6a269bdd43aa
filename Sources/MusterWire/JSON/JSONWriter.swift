/// Writes JSON text as `MusterJSON.encoder()` writes it — keys sorted by their UTF-8 bytes, slashes unescaped, a
/// number as `JSONNumber.text` gives it (an integer without a fraction, any other as Swift's `description`) —
/// byte for byte (`JSONWriterTests` compares the two), without Foundation's `JSONEncoder`: a response object's text
/// took 11 % of the answer routes' CPU through it (bench http-submission).
public struct JSONWriter {
    /// The text written so far.
    public private(set) var bytes: [UInt8] = []
    /// Whether the object being written has no member yet (`member(_:)` then writes no comma).
    private var atFirstMember = false

    public init(capacity: Int = 256) { bytes.reserveCapacity(capacity) }

    /// Writes `value`; a number that is not finite is written as `null`, as `JSONValue.jsonData()` does.
    public mutating func write(_ value: JSONValue) {
        switch value {
        case .null: append("null")
        case .bool(let flag): write(flag)
        case .string(let text): write(text)
        case .number(let number): append(number.text ?? "null")
        case .array(let elements): writeArray(elements) { $0.write($1) }
        case .object(let members):
            writeObject(members.sorted { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }) { $0.write($1) }
        }
    }

    /// Writes an object whose members are given in order (sorted by the caller), each value by `write`.
    public mutating func writeObject<Value>(
        _ members: some Sequence<(key: String, value: Value)>, _ write: (inout JSONWriter, Value) -> Void
    ) {
        bytes.append(UInt8(ascii: "{"))
        var first = true
        for member in members {
            if !first { bytes.append(UInt8(ascii: ",")) }
            first = false
            self.write(member.key)
            bytes.append(UInt8(ascii: ":"))
            write(&self, member.value)
        }
        bytes.append(UInt8(ascii: "}"))
    }

    /// Writes an object: `{`, the members `members` writes through `member(_:)` in the order it writes them (sorted
    /// by the caller, as the encoder sorts them), then `}`.
    public mutating func writeObject(_ members: (inout JSONWriter) -> Void) {
        bytes.append(UInt8(ascii: "{"))
        atFirstMember = true
        members(&self)
        bytes.append(UInt8(ascii: "}"))
        atFirstMember = false
    }

    /// Starts a member of the object being written: its key; its value is written next.
    public mutating func member(_ key: String) {
        if !atFirstMember { bytes.append(UInt8(ascii: ",")) }
        atFirstMember = false
        write(key)
        bytes.append(UInt8(ascii: ":"))
    }

    /// Writes a member whose value is a string; nothing when it is nil, as the encoder leaves out a nil optional.
    public mutating func member(_ key: String, _ text: String?) {
        guard let text else { return }
        member(key)
        write(text)
    }

    /// Writes a member whose value is `true` or `false`.
    public mutating func member(_ key: String, _ flag: Bool) {
        member(key)
        write(flag)
    }

    /// Writes a member whose value is an array; nothing when it is nil.
    public mutating func member<Element>(
        _ key: String, _ elements: [Element]?, _ write: (inout JSONWriter, Element) -> Void
    ) {
        guard let elements else { return }
        member(key)
        writeArray(elements, write)
    }

    /// Writes an array, each element by `write`.
    public mutating func writeArray<Element>(_ elements: [Element], _ write: (inout JSONWriter, Element) -> Void) {
        bytes.append(UInt8(ascii: "["))
        for (index, element) in elements.enumerated() {
            if index > 0 { bytes.append(UInt8(ascii: ",")) }
            write(&self, element)
        }
        bytes.append(UInt8(ascii: "]"))
    }

    /// Writes a wire model that writes itself.
    public mutating func write(_ value: some JSONWritable) { value.write(to: &self) }

    /// Writes `true` or `false`.
    public mutating func write(_ flag: Bool) { append(flag ? "true" : "false") }

    /// Writes an integer.
    public mutating func write(_ integer: Int) { append(String(integer)) }

    /// Writes a string, escaped as JSON requires.
    public mutating func write(_ text: String) {
        bytes.append(UInt8(ascii: "\""))
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\""): append("\\\"")
            case UInt8(ascii: "\\"): append("\\\\")
            case 0x0A: append("\\n")
            case 0x0D: append("\\r")
            case 0x09: append("\\t")
            case 0x08: append("\\b")
            case 0x0C: append("\\f")
            case 0..<0x20:
                let digits = Array("0123456789abcdef".utf8)
                append("\\u00")
                bytes.append(digits[Int(byte >> 4)])
                bytes.append(digits[Int(byte & 0x0F)])
            default: bytes.append(byte)
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }

    private mutating func append(_ text: String) { bytes.append(contentsOf: text.utf8) }
}

/// A wire model that writes its own JSON text, byte for byte what `MusterJSON.encoder()` writes for it: the server
/// answers with it without Foundation's `JSONEncoder` (`JSONWriterTests` compares the two).
public protocol JSONWritable: Encodable {
    func write(to writer: inout JSONWriter)
}

extension JSONWritable {
    /// The JSON text.
    public func jsonBytes() -> [UInt8] {
        var writer = JSONWriter()
        writer.write(self)
        return writer.bytes
    }
}
