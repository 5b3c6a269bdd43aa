import Foundation
import MusterWire
import Testing

/// The answer routes read a plain body without Foundation's decoder: where they do, they read what the decoder reads;
/// anything unusual is left to the decoder (and its errors).
@Suite struct AnswerBodyPlainJSONTests {
    static func decoded(_ text: String) -> AnswerBody? {
        try? MusterJSON.decoder().decode(AnswerBody.self, from: Data(text.utf8))
    }

    static let plain = [
        #"{"deviceId": "d1", "values": {"name": "Ada", "age": 36, "ok": true, "tags": ["a", "b"], "none": null}}"#,
        #"{"deviceId":"d1","deviceName":"Phone","submitValue":-2,"values":{},"responseId":"6F9619FF-8B86-D011-B42D-00C04FC964FF"}"#,
        #"{"values": {"x": 1.5, "y": -0.25, "big": 123456789012345678901234567890, "e": 1e-7}, "deviceId": "d"}"#,
        #"{"deviceId": "d", "values": [1, 2], "submitValue": null, "deviceName": null, "responseId": null}"#,
        #"{"deviceId": "ünïcödé \"q\" \n", "values": "text", "submitValue": 0}"#,
        #" { "deviceId" : "d" , "values" : null } "#,
    ]

    @Test(arguments: plain) func aPlainBodyReadsAsTheDecoderReadsIt(_ text: String) throws {
        let fast = try #require(AnswerBody(plainJSON: Array(text.utf8)), "\(text)")
        #expect(fast == Self.decoded(text), "\(text)")
    }

    static let unusual = [
        #"{"deviceId": "d", "values": {}, "location": {"latitude": 1, "longitude": 2}}"#,  // a location
        #"{"deviceId": "d", "values": {}, "extra": 1}"#,  // an unknown member
        #"{"deviceId": "d", "deviceId": "e", "values": {}}"#,  // a member twice
        #"{"deviceId": "d", "values": {}, "submitValue": 1.0}"#,  // not an integer literal
        #"{"deviceId": "d", "values": {}, "submitValue": 99999999999999999999}"#,  // too large for an Int
        #"{"deviceId": "d", "values": {}, "submitValue": "1"}"#,
        #"{"deviceId": "d", "values": {}, "responseId": "not-a-uuid"}"#,
        #"{"deviceId": 7, "values": {}}"#,
        #"{"deviceId": "d", "deviceName": 7, "values": {}}"#,
        #"{"deviceId": "d"}"#,  // no values
        #"{"values": {}}"#,  // no device
        #"{"deviceId": "\ud800", "values": {}}"#,  // a lone surrogate
        #"{"deviceId": "d", "values": {"n": 1e400}}"#,  // too large for a Double
        #"{"deviceId": "d", "values": {},}"#,  // not JSON
        #"[{"deviceId": "d", "values": {}}]"#,
        "",
    ]

    @Test(arguments: unusual) func anUnusualBodyIsLeftToTheDecoder(_ text: String) {
        #expect(AnswerBody(plainJSON: Array(text.utf8)) == nil, "\(text)")
    }

    @Test func randomAnswersReadAlike() throws {
        var generator = SystemRandomNumberGenerator()
        func value(_ depth: Int) -> String {
            switch Int.random(in: 0..<(depth > 2 ? 4 : 6), using: &generator) {
            case 0: return "null"
            case 1: return Bool.random(using: &generator) ? "true" : "false"
            case 2: return String(Double.random(in: -1e6...1e6, using: &generator))
            case 3: return "\"s\(Int.random(in: 0...999, using: &generator))\\t\""
            case 4:
                return "["
                    + (0..<Int.random(in: 0...3, using: &generator)).map { _ in value(depth + 1) }.joined(
                        separator: ",") + "]"
            default:
                return "{"
                    + (0..<Int.random(in: 0...3, using: &generator)).map { "\"k\($0)\": \(value(depth + 1))" }
                    .joined(separator: ", ") + "}"
            }
        }
        for _ in 0..<500 {
            var members = [#""deviceId": "d\#(Int.random(in: 0...9, using: &generator))""#, #""values": \#(value(0))"#]
            if Bool.random(using: &generator) {
                members.append(#""submitValue": \#(Int.random(in: -5...5, using: &generator))"#)
            }
            if Bool.random(using: &generator) { members.append(#""deviceName": "n""#) }
            if Bool.random(using: &generator) { members.append(#""responseId": "\#(UUID().uuidString.lowercased())""#) }
            let text = "{" + members.shuffled(using: &generator).joined(separator: ", ") + "}"
            let fast = try #require(AnswerBody(plainJSON: Array(text.utf8)), "\(text)")
            #expect(fast == Self.decoded(text), "\(text)")
        }
    }
}
