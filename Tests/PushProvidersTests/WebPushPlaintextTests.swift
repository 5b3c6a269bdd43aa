import Foundation
import Testing

@testable import PushProviders

/// The title and body written into a Web Push plaintext: the same bytes `JSONEncoder` gives.
@Suite struct WebPushPlaintextTests {
    @Test(arguments: [
        "", "Fire drill", "Assemble at \"point B\" / now", "back\\slash", "tab\there", "line\nbreak", "\u{7F}del",
        "\u{1}\u{1F}", "Café", "\u{2028}\u{2029}", "emoji 🚒", "</script>", "a/b",
    ])
    func aStringIsWrittenAsJSONEncoderWritesIt(text: String) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .withoutEscapingSlashes
        #expect(WebPushProvider.jsonString(text) == [UInt8](try encoder.encode(text)))
    }
}
