import Foundation

/// Reads what `ByteWriter` wrote, from borrowed bytes; every read is bounds-checked and a short or
/// malformed input throws `StoreError(.corrupt)` naming what was being read.
public struct ByteReader {
    @usableFromInline let buffer: UnsafeRawBufferPointer
    @usableFromInline var next: Int

    public init(_ buffer: UnsafeRawBufferPointer, offset: Int = 0) {
        self.buffer = buffer
        self.next = offset
    }

    /// Offset of the next byte to read.
    public var offset: Int { next }

    /// Bytes not yet read.
    public var remaining: Int { buffer.count - offset }

    @usableFromInline func need(_ n: Int, _ what: StaticString) throws {
        if n > remaining || n < 0 {
            throw StoreError(
                .corrupt, "truncated data: \(what) needs \(n) bytes, \(remaining) left at offset \(next)")
        }
    }

    public mutating func readByte(_ what: StaticString = "byte") throws -> UInt8 {
        try need(1, what)
        defer { next += 1 }
        return buffer[offset]
    }

    public mutating func readBool(_ what: StaticString = "bool") throws -> Bool {
        try readByte(what) != 0
    }

    /// Inlinable, so that callers in other modules get it specialized to their integer type.
    @inlinable
    public mutating func read<T: FixedWidthInteger>(fixed: T.Type, _ what: StaticString = "integer") throws -> T {
        try need(MemoryLayout<T>.size, what)
        defer { next += MemoryLayout<T>.size }
        return T(littleEndian: buffer.loadUnaligned(fromByteOffset: next, as: T.self))
    }

    public mutating func readVarint(_ what: StaticString = "varint") throws -> UInt64 {
        var result: UInt64 = 0
        var shift: UInt64 = 0
        while true {
            let byte = try readByte(what)
            if shift == 63 && byte > 1 { throw StoreError(.corrupt, "varint overflow reading \(what)") }
            result |= UInt64(byte & 0x7F) << shift
            if byte < 0x80 { return result }
            shift += 7
            if shift > 63 { throw StoreError(.corrupt, "varint too long reading \(what)") }
        }
    }

    public mutating func readSigned(_ what: StaticString = "signed varint") throws -> Int64 {
        let raw = try readVarint(what)
        return Int64(bitPattern: raw >> 1) ^ -Int64(bitPattern: raw & 1)
    }

    /// Borrows the next `count` bytes.
    public mutating func readRaw(count: Int, _ what: StaticString = "bytes") throws -> UnsafeRawBufferPointer {
        try need(count, what)
        defer { next += count }
        return UnsafeRawBufferPointer(rebasing: buffer[offset..<offset + count])
    }

    public mutating func readString(_ what: StaticString = "string") throws -> String {
        let count = try readLength(what)
        let raw = try readRaw(count: count, what)
        // Decoding (which repairs rather than rejects) is specialised and fast; stored bytes have
        // passed their checksum already, and every string was valid UTF-8 when it was written.
        return String(decoding: raw.bindMemory(to: UInt8.self), as: UTF8.self)
    }

    public mutating func readBytes(_ what: StaticString = "bytes") throws -> [UInt8] {
        let count = try readLength(what)
        return Array(try readRaw(count: count, what))
    }

    public mutating func readUUID(_ what: StaticString = "uuid") throws -> UUID {
        try need(16, what)
        defer { next += 16 }
        return UUID(uuid: buffer.loadUnaligned(fromByteOffset: offset, as: uuid_t.self))
    }

    public mutating func readOptionalUUID(_ what: StaticString = "uuid") throws -> UUID? {
        try readBool(what) ? try readUUID(what) : nil
    }

    private mutating func readLength(_ what: StaticString) throws -> Int {
        let count = try readVarint(what)
        guard count <= UInt64(remaining) else {
            throw StoreError(.corrupt, "truncated data: \(what) declares \(count) bytes, \(remaining) left")
        }
        return Int(count)
    }
}
