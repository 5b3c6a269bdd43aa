extension Array where Element == UInt8 {
    /// Whether these bytes hold `needle` anywhere: a plain byte search. Projections run such checks for every event
    /// on the writer thread, where the generic `firstRange(of:)` (Foundation matching position by position) cost
    /// 8 % of the MQTT bridge's CPU. (libc's `memmem` is a GNU extension Swift's Glibc module does not expose.)
    func containsBytes(_ needle: [UInt8]) -> Bool {
        let length = needle.count
        guard length > 0 else { return true }
        guard count >= length else { return false }
        return withUnsafeBufferPointer { bytes in
            needle.withUnsafeBufferPointer { needle in
                for start in 0...(bytes.count - length) where bytes[start] == needle[0] {
                    var matched = 1
                    while matched < length, bytes[start + matched] == needle[matched] { matched += 1 }
                    if matched == length { return true }
                }
                return false
            }
        }
    }
}
