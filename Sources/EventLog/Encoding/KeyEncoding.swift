/// Big-endian keys, so that LMDB's byte order is numeric order.
public enum Key {
    /// A position (or any count) big-endian, so keys sort by it.
    public static func position(_ value: UInt64) -> [UInt8] {
        withUnsafeBytes(of: value.bigEndian) { Array($0) }
    }

    /// The big-endian number at `offset`.
    public static func readPosition(_ bytes: UnsafeRawBufferPointer, at offset: Int = 0) -> UInt64 {
        UInt64(bigEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
    }

    /// `a 0x00 b 0x00 …`: names that cannot contain NUL, joined so a prefix scan finds one group.
    public static func joined(_ parts: String...) -> [UInt8] {
        var key: [UInt8] = []
        // One allocation: a key grown part by part was reallocated as it grew, on every projection write.
        key.reserveCapacity(parts.reduce(parts.count) { $0 + $1.utf8.count })
        for part in parts {
            key.append(contentsOf: part.utf8)
            key.append(0)
        }
        return key
    }

    /// The names of a `joined` key, in order (the inverse of `joined`; a last part without its NUL counts too).
    public static func components(_ key: some Collection<UInt8>) -> [String] {
        var parts: [String] = []
        var part: [UInt8] = []
        for byte in key {
            if byte == 0 {
                parts.append(String(decoding: part, as: UTF8.self))
                part.removeAll(keepingCapacity: true)
            } else {
                part.append(byte)
            }
        }
        if !part.isEmpty { parts.append(String(decoding: part, as: UTF8.self)) }
        return parts
    }
}
