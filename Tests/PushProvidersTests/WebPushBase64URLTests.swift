import Foundation
import PushProviders
import Testing

/// Base64url as RFC 4648 §5 defines it: the standard alphabet with `-` and `_` for `+` and `/`, no padding written.
@Suite struct WebPushBase64URLTests {
    /// The same text Foundation's standard base64 gives, with the two letters swapped and the padding dropped.
    static func expected(_ bytes: [UInt8]) -> String {
        Data(bytes).base64EncodedString().replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
    }

    @Test func everyLengthRoundTripsAndMatchesTheStandardAlphabet() {
        var generator = SystemRandomNumberGenerator()
        for length in 0...70 {
            // 0xFB 0xFF… makes `+` and `/` appear in the standard form.
            let bytes = (0..<length).map { $0 % 3 == 0 ? 0xFB : UInt8.random(in: .min ... .max, using: &generator) }
            let text = WebPushBase64URL.encode(bytes)
            #expect(text == Self.expected(bytes))
            #expect(!text.contains("=") && !text.contains("+") && !text.contains("/"))
            #expect(WebPushBase64URL.decode(text) == bytes)
        }
    }

    @Test func paddingIsAcceptedWhenRead() {
        #expect(WebPushBase64URL.decode("-_8=") == [0xFB, 0xFF])
        #expect(WebPushBase64URL.decode("-_8") == [0xFB, 0xFF])
        #expect(WebPushBase64URL.decode("AA==") == [0])
    }

    @Test func aCharacterOutsideTheAlphabetOrAnImpossibleLengthIsRefused() {
        #expect(WebPushBase64URL.decode("ab+c") == nil)  // the standard alphabet's `+`
        #expect(WebPushBase64URL.decode("ab/c") == nil)
        #expect(WebPushBase64URL.decode("ab c") == nil)
        #expect(WebPushBase64URL.decode("abcdé") == nil)
        #expect(WebPushBase64URL.decode("abcde") == nil)  // 5 characters: no byte count gives that
        #expect(WebPushBase64URL.decode("") == [])
    }
}
