import Foundation

/// `Codable` in the compact binary codec: a type's fields in the order it encodes them (declaration
/// order, for a synthesized conformance), with no keys and no type tags, so the stored layout is
/// the field list and nothing more.
///
/// - `String` and `[UInt8]`: a varint length, then the bytes.
/// - Signed integers: zig-zag varints; unsigned ones: varints; `Bool`: one byte.
/// - `Double`: its 8 bytes, `Float` its 4, little-endian; `UUID`: its 16 bytes.
/// - Arrays: a varint count, then the elements.
/// - Optionals: a `String` writes nil as `""`, an `Int` as `-1` (so those values read back as nil);
///   any other optional writes a presence byte, then the value when present.
///
/// Reordering or retyping a field changes the stored bytes: that takes a new schema version and
/// an upcaster.
public enum BinaryCoding {
    /// Present (true) in `userInfo` while values are encoded or decoded in this codec, for a type
    /// whose stored shape differs from its JSON shape.
    public static let userInfoKey = CodingUserInfoKey(rawValue: "muster.binaryCoding")!

    public static func encode(_ value: some Encodable, into writer: inout ByteWriter) throws {
        let encoder = BinaryEncoder(writer: writer)
        writer = ByteWriter()
        defer { writer = encoder.writer }
        try encoder.write(value)
    }

    public static func decode<T: Decodable>(_ type: T.Type, from reader: inout ByteReader) throws -> T {
        try withUnsafeMutablePointer(to: &reader) { reader in
            let decoder = BinaryDecoder(reader: reader)
            do {
                return try decoder.read(type)
            } catch let error as DecodingError {
                throw StoreError(.corrupt, "a \(type) body does not decode: \(Self.reason(error))")
            }
        }
    }
}

extension BinaryCoding {
    /// What a `DecodingError` says, without its enum case and context dump.
    static func reason(_ error: DecodingError) -> String {
        switch error {
        case .dataCorrupted(let context), .typeMismatch(_, let context), .valueNotFound(_, let context),
            .keyNotFound(_, let context):
            context.debugDescription
        @unknown default: "\(error)"
        }
    }
}

/// A collection the codec writes as a count, then its elements.
protocol BinaryCountedCollection { var count: Int { get } }
extension Array: BinaryCountedCollection {}

/// Collections the codec refuses: a dictionary's keys would be lost, a set's order is not stable.
protocol BinaryUnsupportedCollection {}
extension Dictionary: BinaryUnsupportedCollection {}
extension Set: BinaryUnsupportedCollection {}

/// `value` as `T` when the caller has checked that its type is `T`: no dynamic cast.
@inline(__always)
private func same<Value, T>(_ value: Value, as type: T.Type) -> T {
    assert(Value.self == T.self)
    return unsafeBitCast(value, to: T.self)
}

final class BinaryEncoder: Encoder {
    var writer: ByteWriter
    let codingPath: [any CodingKey] = []
    let userInfo: [CodingUserInfoKey: Any] = [BinaryCoding.userInfoKey: true]

    init(writer: ByteWriter) { self.writer = writer }

    func write<T: Encodable>(_ value: T) throws {
        // Metatype comparisons and bit casts, as in `BinaryDecoder.read`.
        if T.self == String.self { return writer.write(same(value, as: String.self)) }
        if T.self == Int.self { return writer.write(signed: Int64(same(value, as: Int.self))) }
        if T.self == Int64.self { return writer.write(signed: same(value, as: Int64.self)) }
        if T.self == UInt64.self { return writer.write(varint: same(value, as: UInt64.self)) }
        if T.self == Bool.self { return writer.write(same(value, as: Bool.self)) }
        if T.self == Double.self { return writer.write(fixed: same(value, as: Double.self).bitPattern) }
        if T.self == UUID.self { return writer.write(same(value, as: UUID.self)) }
        if T.self == [UInt8].self { return writer.write(bytes: same(value, as: [UInt8].self)) }
        if T.self == Float.self { return writer.write(fixed: same(value, as: Float.self).bitPattern) }
        if T.self == Int32.self { return writer.write(signed: Int64(same(value, as: Int32.self))) }
        if T.self == Int16.self { return writer.write(signed: Int64(same(value, as: Int16.self))) }
        if T.self == Int8.self { return writer.write(signed: Int64(same(value, as: Int8.self))) }
        if T.self == UInt.self { return writer.write(varint: UInt64(same(value, as: UInt.self))) }
        if T.self == UInt32.self { return writer.write(varint: UInt64(same(value, as: UInt32.self))) }
        if T.self == UInt16.self { return writer.write(varint: UInt64(same(value, as: UInt16.self))) }
        if T.self == UInt8.self { return writer.write(varint: UInt64(same(value, as: UInt8.self))) }
        switch value {
        case is any BinaryUnsupportedCollection: throw BinaryCodingUnsupported("a dictionary or a set")
        case let collection as any BinaryCountedCollection:
            writer.write(varint: UInt64(collection.count))
            try value.encode(to: self)
        default: try value.encode(to: self)
        }
    }

    func writeOptional<T: Encodable>(_ value: T?) throws {
        // A `String` or an `Int` writes nil as a value of its own (see `BinaryCoding`).
        if T.self == String.self { return try write(value ?? same("", as: T.self)) }
        if T.self == Int.self { return try write(value ?? same(-1, as: T.self)) }
        writer.write(value != nil)
        if let value { try write(value) }
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        KeyedEncodingContainer(KeyedFields(encoder: self))
    }
    func unkeyedContainer() -> any UnkeyedEncodingContainer { Values(encoder: self) }
    func singleValueContainer() -> any SingleValueEncodingContainer { Values(encoder: self) }

    /// Elements of an array, or a single value: written one after the other.
    struct Values: UnkeyedEncodingContainer, SingleValueEncodingContainer {
        let encoder: BinaryEncoder
        var codingPath: [any CodingKey] { [] }
        private(set) var count = 0

        mutating func encode<T: Encodable>(_ value: T) throws {
            try encoder.write(value)
            count += 1
        }
        mutating func encodeNil() throws { throw BinaryCodingUnsupported("a nil outside an optional field") }
        mutating func nestedContainer<Nested: CodingKey>(keyedBy type: Nested.Type) -> KeyedEncodingContainer<Nested> {
            encoder.container(keyedBy: type)
        }
        mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
            preconditionFailure("the binary codec writes an array as a value: encode the array itself")
        }
        mutating func superEncoder() -> any Encoder { encoder }
    }

    /// A struct's fields, keys dropped.
    struct KeyedFields<Key: CodingKey>: KeyedEncodingContainerProtocol {
        let encoder: BinaryEncoder
        var codingPath: [any CodingKey] { [] }

        mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws { try encoder.write(value) }
        mutating func encodeNil(forKey key: Key) throws { throw BinaryCodingUnsupported("a nil field") }
        // Every optional goes through `writeOptional`: the protocol's defaults would write nothing for nil.
        mutating func encodeIfPresent<T: Encodable>(_ value: T?, forKey key: Key) throws {
            try encoder.writeOptional(value)
        }
        mutating func encodeIfPresent(_ v: Bool?, forKey key: Key) throws { try encoder.writeOptional(v) }
        mutating func encodeIfPresent(_ v: String?, forKey key: Key) throws { try encoder.writeOptional(v) }
        mutating func encodeIfPresent(_ v: Double?, forKey key: Key) throws { try encoder.writeOptional(v) }
        mutating func encodeIfPresent(_ v: Float?, forKey key: Key) throws { try encoder.writeOptional(v) }
        mutating func encodeIfPresent(_ v: Int?, forKey key: Key) throws { try encoder.writeOptional(v) }
        mutating func encodeIfPresent(_ v: Int8?, forKey key: Key) throws { try encoder.writeOptional(v) }
        mutating func encodeIfPresent(_ v: Int16?, forKey key: Key) throws { try encoder.writeOptional(v) }
        mutating func encodeIfPresent(_ v: Int32?, forKey key: Key) throws { try encoder.writeOptional(v) }
        mutating func encodeIfPresent(_ v: Int64?, forKey key: Key) throws { try encoder.writeOptional(v) }
        mutating func encodeIfPresent(_ v: UInt?, forKey key: Key) throws { try encoder.writeOptional(v) }
        mutating func encodeIfPresent(_ v: UInt8?, forKey key: Key) throws { try encoder.writeOptional(v) }
        mutating func encodeIfPresent(_ v: UInt16?, forKey key: Key) throws { try encoder.writeOptional(v) }
        mutating func encodeIfPresent(_ v: UInt32?, forKey key: Key) throws { try encoder.writeOptional(v) }
        mutating func encodeIfPresent(_ v: UInt64?, forKey key: Key) throws { try encoder.writeOptional(v) }
        mutating func nestedContainer<Nested: CodingKey>(keyedBy type: Nested.Type, forKey key: Key)
            -> KeyedEncodingContainer<Nested>
        {
            encoder.container(keyedBy: type)
        }
        mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
            preconditionFailure("the binary codec writes an array as a value: encode the array itself")
        }
        mutating func superEncoder() -> any Encoder { encoder }
        mutating func superEncoder(forKey key: Key) -> any Encoder { encoder }
    }
}

final class BinaryDecoder: Decoder {
    /// The caller's reader, borrowed for the decode: a pointer, not a stored `var`, so that each
    /// read is not an exclusivity-checked access to a class property.
    let reader: UnsafeMutablePointer<ByteReader>
    let codingPath: [any CodingKey] = []
    let userInfo: [CodingUserInfoKey: Any] = [BinaryCoding.userInfoKey: true]

    init(reader: UnsafeMutablePointer<ByteReader>) { self.reader = reader }

    func read<T: Decodable>(_ type: T.Type) throws -> T {
        // Metatype comparisons and bit casts to the very same type: a dynamic cast (`as! T`, or to
        // a protocol) costs more than reading the value.
        if T.self == String.self { return same(try reader.pointee.readString("string"), as: T.self) }
        if T.self == Int.self { return same(Int(try reader.pointee.readSigned("integer")), as: T.self) }
        if T.self == Int64.self { return same(try reader.pointee.readSigned("integer"), as: T.self) }
        if T.self == UInt64.self { return same(try reader.pointee.readVarint("integer"), as: T.self) }
        if T.self == Bool.self { return same(try reader.pointee.readBool("bool"), as: T.self) }
        if T.self == Double.self {
            return same(Double(bitPattern: try reader.pointee.read(fixed: UInt64.self, "double")), as: T.self)
        }
        if T.self == UUID.self { return same(try reader.pointee.readUUID("uuid"), as: T.self) }
        if T.self == [UInt8].self { return same(try reader.pointee.readBytes("bytes"), as: T.self) }
        if T.self == Float.self {
            return same(Float(bitPattern: try reader.pointee.read(fixed: UInt32.self, "float")), as: T.self)
        }
        if T.self == Int32.self { return same(try narrow(Int32(exactly: try signed())), as: T.self) }
        if T.self == Int16.self { return same(try narrow(Int16(exactly: try signed())), as: T.self) }
        if T.self == Int8.self { return same(try narrow(Int8(exactly: try signed())), as: T.self) }
        if T.self == UInt.self { return same(try narrow(UInt(exactly: try unsigned())), as: T.self) }
        if T.self == UInt32.self { return same(try narrow(UInt32(exactly: try unsigned())), as: T.self) }
        if T.self == UInt16.self { return same(try narrow(UInt16(exactly: try unsigned())), as: T.self) }
        if T.self == UInt8.self { return same(try narrow(UInt8(exactly: try unsigned())), as: T.self) }
        return try T(from: self)
    }

    private func signed() throws -> Int64 { try reader.pointee.readSigned("integer") }
    private func unsigned() throws -> UInt64 { try reader.pointee.readVarint("integer") }

    private func narrow<I>(_ value: I?) throws -> I {
        guard let value else { throw StoreError(.corrupt, "an integer too large for its \(I.self) field") }
        return value
    }

    func readOptional<T: Decodable>(_ type: T.Type) throws -> T? {
        if T.self == String.self {
            let text = try reader.pointee.readString("string")
            return text.isEmpty ? nil : same(text, as: T.self)
        }
        if T.self == Int.self {
            let number = try read(Int.self)
            return number == -1 ? nil : same(number, as: T.self)
        }
        return try reader.pointee.readBool("presence") ? try read(type) : nil
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedDecodingContainer<Key> {
        KeyedDecodingContainer(KeyedFields(decoder: self))
    }
    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        let count = try reader.pointee.readVarint("count")
        // Every element takes at least one byte: a larger count is corrupt, not a reason to loop.
        guard count <= UInt64(reader.pointee.remaining) else {
            throw StoreError(.corrupt, "a count of \(count) with \(reader.pointee.remaining) bytes left")
        }
        return Elements(decoder: self, count: Int(count))
    }
    func singleValueContainer() throws -> any SingleValueDecodingContainer { Value(decoder: self) }

    /// An array's elements, after its count.
    struct Elements: UnkeyedDecodingContainer {
        let decoder: BinaryDecoder
        let count: Int?
        private(set) var currentIndex = 0
        var codingPath: [any CodingKey] { [] }
        var isAtEnd: Bool { currentIndex == count }

        init(decoder: BinaryDecoder, count: Int) {
            self.decoder = decoder
            self.count = count
        }
        mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
            defer { currentIndex += 1 }
            return try decoder.read(type)
        }
        mutating func decodeNil() throws -> Bool { false }
        mutating func nestedContainer<Nested: CodingKey>(keyedBy type: Nested.Type) -> KeyedDecodingContainer<Nested> {
            decoder.container(keyedBy: type)
        }
        mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
            try decoder.unkeyedContainer()
        }
        mutating func superDecoder() -> any Decoder { decoder }
    }

    struct Value: SingleValueDecodingContainer {
        let decoder: BinaryDecoder
        var codingPath: [any CodingKey] { [] }
        func decode<T: Decodable>(_ type: T.Type) throws -> T { try decoder.read(type) }
        func decodeNil() -> Bool { false }
    }

    /// A struct's fields, read in order whatever key is asked for.
    struct KeyedFields<Key: CodingKey>: KeyedDecodingContainerProtocol {
        let decoder: BinaryDecoder
        var codingPath: [any CodingKey] { [] }
        var allKeys: [Key] { [] }

        func contains(_ key: Key) -> Bool { true }
        func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T { try decoder.read(type) }
        func decodeNil(forKey key: Key) throws -> Bool { throw BinaryCodingUnsupported("a nil field") }
        // Every optional goes through `readOptional`, as it was written by `writeOptional`.
        func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
            try decoder.readOptional(type)
        }
        func decodeIfPresent(_ t: Bool.Type, forKey key: Key) throws -> Bool? { try decoder.readOptional(t) }
        func decodeIfPresent(_ t: String.Type, forKey key: Key) throws -> String? { try decoder.readOptional(t) }
        func decodeIfPresent(_ t: Double.Type, forKey key: Key) throws -> Double? { try decoder.readOptional(t) }
        func decodeIfPresent(_ t: Float.Type, forKey key: Key) throws -> Float? { try decoder.readOptional(t) }
        func decodeIfPresent(_ t: Int.Type, forKey key: Key) throws -> Int? { try decoder.readOptional(t) }
        func decodeIfPresent(_ t: Int8.Type, forKey key: Key) throws -> Int8? { try decoder.readOptional(t) }
        func decodeIfPresent(_ t: Int16.Type, forKey key: Key) throws -> Int16? { try decoder.readOptional(t) }
        func decodeIfPresent(_ t: Int32.Type, forKey key: Key) throws -> Int32? { try decoder.readOptional(t) }
        func decodeIfPresent(_ t: Int64.Type, forKey key: Key) throws -> Int64? { try decoder.readOptional(t) }
        func decodeIfPresent(_ t: UInt.Type, forKey key: Key) throws -> UInt? { try decoder.readOptional(t) }
        func decodeIfPresent(_ t: UInt8.Type, forKey key: Key) throws -> UInt8? { try decoder.readOptional(t) }
        func decodeIfPresent(_ t: UInt16.Type, forKey key: Key) throws -> UInt16? { try decoder.readOptional(t) }
        func decodeIfPresent(_ t: UInt32.Type, forKey key: Key) throws -> UInt32? { try decoder.readOptional(t) }
        func decodeIfPresent(_ t: UInt64.Type, forKey key: Key) throws -> UInt64? { try decoder.readOptional(t) }
        func nestedContainer<Nested: CodingKey>(keyedBy type: Nested.Type, forKey key: Key)
            -> KeyedDecodingContainer<Nested>
        {
            decoder.container(keyedBy: type)
        }
        func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
            try decoder.unkeyedContainer()
        }
        func superDecoder() -> any Decoder { decoder }
        func superDecoder(forKey key: Key) -> any Decoder { decoder }
    }
}

/// A shape the binary codec has no way to write (a bare nil, a dictionary): a programming error in
/// the type being written.
struct BinaryCodingUnsupported: Error, CustomStringConvertible {
    let description: String
    init(_ what: String) { description = "the binary codec cannot write \(what)" }
}
