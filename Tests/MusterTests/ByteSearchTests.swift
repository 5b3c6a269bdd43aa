import Testing

@testable import Muster

/// The byte search projections use on every event finds a needle exactly where a naive search does.
@Suite struct ByteSearchTests {
    /// Every window compared, byte by byte.
    static func naive(_ haystack: [UInt8], _ needle: [UInt8]) -> Bool {
        guard !needle.isEmpty else { return true }
        guard haystack.count >= needle.count else { return false }
        return (0...(haystack.count - needle.count)).contains { Array(haystack[$0..<($0 + needle.count)]) == needle }
    }

    @Test func findsANeedleWhereverItStands() {
        let key = Array("SessionObject".utf8)
        #expect(Array(#"{"SessionObject":{}}"#.utf8).containsBytes(key))
        #expect(Array(#"{"a":1,"SessionObject"#.utf8).containsBytes(key))  // at the very end
        #expect(key.containsBytes(key))
        #expect(!Array(#"{"SessionObjec":1,"S":2,"essionObject":3}"#.utf8).containsBytes(key))
        #expect(!Array("Session".utf8).containsBytes(key))  // shorter than the needle
        #expect([UInt8]().containsBytes([]))
        #expect(![UInt8]().containsBytes([1]))
    }

    @Test func agreesWithANaiveSearchOnRandomBytes() {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<2_000 {
            // A small alphabet, so partial matches and repeated first bytes are common.
            let haystack = (0..<Int.random(in: 0...40, using: &generator)).map { _ in
                UInt8.random(in: 0...3, using: &generator)
            }
            let needle = (0..<Int.random(in: 0...5, using: &generator)).map { _ in
                UInt8.random(in: 0...3, using: &generator)
            }
            #expect(haystack.containsBytes(needle) == Self.naive(haystack, needle), "\(haystack) \(needle)")
        }
    }

    @Test func findsASingleByte() {
        #expect(Array(#"{"a":"\n"}"#.utf8).containsByte(UInt8(ascii: "\\")))
        #expect(!Array(#"{"a":"n"}"#.utf8).containsByte(UInt8(ascii: "\\")))
        #expect(![UInt8]().containsByte(0))
    }
}
