/// Generated blob contents: JSON-like text that compresses as logs and exports do, and random bytes.
enum SampleData {
    /// `size` bytes of newline-separated JSON records with varying numbers and words.
    static func jsonLines(_ size: Int) -> [UInt8] {
        var generator = WyRand(seed: 42)
        let words = ["alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "golf", "hotel", "india", "juliet"]
        var out: [UInt8] = []
        out.reserveCapacity(size + 512)
        var n = 0
        while out.count < size {
            let r = generator.next()
            let word = words[Int(r % UInt64(words.count))]
            let line =
                "{\"seq\":\(n),\"user\":\"user-\(r % 100_000)\",\"lat\":\(Double(r % 180_000) / 1000),"
                + "\"lon\":\(Double((r >> 20) % 360_000) / 1000),\"tag\":\"\(word)\",\"ok\":\(r & 1 == 0)}\n"
            out.append(contentsOf: line.utf8)
            n += 1
        }
        return Array(out.prefix(size))
    }

    /// `size` bytes from a seeded generator: incompressible for zstd.
    static func random(_ size: Int) -> [UInt8] {
        var generator = WyRand(seed: 7)
        var out = [UInt8](repeating: 0, count: size)
        out.withUnsafeMutableBytes { bytes in
            var offset = 0
            while offset + 8 <= bytes.count {
                bytes.storeBytes(of: generator.next(), toByteOffset: offset, as: UInt64.self)
                offset += 8
            }
            while offset < bytes.count {
                bytes[offset] = UInt8(truncatingIfNeeded: generator.next())
                offset += 1
            }
        }
        return out
    }
}

/// wyrand: a fast, seedable 64-bit generator (not for secrets).
struct WyRand: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0xa076_1d64_78bd_642f
        let product = state.multipliedFullWidth(by: state ^ 0xe703_7ed1_a0b4_28db)
        return product.high ^ product.low
    }
}
