import Foundation

/// Appends a compact binary encoding to a byte buffer: fixed-width little-endian integers,
/// LEB128 varints, length-prefixed strings and bytes. The body codec of domain events and the
/// envelope codec both write with it.
public struct ByteWriter: Sendable {
    /// The bytes written so far.
    public private(set) var bytes: [UInt8]

    public init(capacity: Int = 256) {
        bytes = []
        bytes.reserveCapacity(capacity)
    }

    public mutating func write(_ value: UInt8) { bytes.append(value) }

    public mutating func write(_ value: Bool) { bytes.append(value ? 1 : 0) }

    public mutating func write<T: FixedWidthInteger>(fixed value: T) {
        withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) }
    }

    /// Writes an unsigned LEB128 varint.
    public mutating func write(varint value: UInt64) {
        var v = value
        while v >= 0x80 {
            bytes.append(UInt8(truncatingIfNeeded: v) | 0x80)
            v >>= 7
        }
        bytes.append(UInt8(v))
    }

    /// Writes a signed integer as a zig-zag varint.
    public mutating func write(signed value: Int64) {
        write(varint: UInt64(bitPattern: (value << 1) ^ (value >> 63)))
    }

    public mutating func write(_ value: String) {
        var copy = value
        copy.withUTF8 { utf8 in
            write(varint: UInt64(utf8.count))
            bytes.append(contentsOf: utf8)
        }
    }

    public mutating func write(bytes value: some Collection<UInt8>) {
        write(varint: UInt64(value.count))
        bytes.append(contentsOf: value)
    }

    public mutating func write(_ value: UUID) {
        withUnsafeBytes(of: value.uuid) { bytes.append(contentsOf: $0) }
    }

    public mutating func write(_ value: UUID?) {
        if let value {
            write(UInt8(1))
            write(value)
        } else {
            write(UInt8(0))
        }
    }

    /// Appends raw bytes with no length prefix.
    public mutating func append(raw value: some Collection<UInt8>) { bytes.append(contentsOf: value) }
}
