import Foundation

extension Array where Element == UInt8 {
    /// Whether these bytes hold `needle` anywhere: a plain byte search. Projections run such checks for every event
    /// on the writer thread, where the generic `firstRange(of:)` (Foundation matching position by position) cost
    /// 8 % of the MQTT bridge's CPU. libc's `memchr` finds each candidate first byte (libc's `memmem` is a GNU
    /// extension Swift's Glibc module does not expose).
    func containsBytes(_ needle: [UInt8]) -> Bool {
        let length = needle.count
        guard length > 0 else { return true }
        guard count >= length else { return false }
        return withUnsafeBufferPointer { bytes in
            needle.withUnsafeBufferPointer { needle in
                let base = bytes.baseAddress!
                let lastStart = bytes.count - length
                var start = 0
                while start <= lastStart {
                    guard let hit = memchr(base + start, Int32(needle[0]), lastStart - start + 1) else { return false }
                    let at = base.distance(to: hit.assumingMemoryBound(to: UInt8.self))
                    if memcmp(base + at, needle.baseAddress!, length) == 0 { return true }
                    start = at + 1
                }
                return false
            }
        }
    }

    /// Whether these bytes hold `byte`: libc's `memchr`.
    func containsByte(_ byte: UInt8) -> Bool {
        withUnsafeBufferPointer { bytes in
            guard let base = bytes.baseAddress else { return false }
            return memchr(base, Int32(byte), bytes.count) != nil
        }
    }
}
