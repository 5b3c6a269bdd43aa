import Foundation
import MusterWire
import Testing

/// The location route reads a plain fix without Foundation's decoder: where it does, it reads what the decoder reads;
/// anything unusual is left to the decoder (and its errors).
@Suite struct LocationBodyPlainJSONTests {
    static func decoded(_ text: String) -> LocationBody? {
        try? MusterJSON.decoder().decode(LocationBody.self, from: Data(text.utf8))
    }

    static let plain = [
        #"{"deviceId": "phone", "lat": 48.87621805, "lng": 2.32686415}"#,
        #"{"lng":-0.1275,"lat":51.507222,"deviceId":"p","accuracy":12.5,"at":"2026-11-23T10:00:00.250Z"}"#,
        #"{"deviceId": "p", "lat": 48, "lng": 2, "accuracy": null, "at": null}"#,
        #"{"deviceId": "ünïcödé \"q\" \n", "lat": -90, "lng": 180, "accuracy": 0}"#,
        #"{"deviceId": "p", "lat": 4.8e1, "lng": 2.0E-1, "accuracy": 1e3}"#,
        #"{"deviceId": "p", "lat": 0.30000000000000004, "lng": 9007199254740993}"#,
        #" { "deviceId" : "p" , "lat" : 1 , "lng" : 2 } "#,
    ]

    @Test(arguments: plain) func aPlainFixReadsAsTheDecoderReadsIt(_ text: String) throws {
        let fast = try #require(LocationBody(plainJSON: Array(text.utf8)), "\(text)")
        #expect(fast == Self.decoded(text), "\(text)")
    }

    static let unusual = [
        #"{"deviceId": "p", "lat": 1, "lng": 2, "altitude": 30}"#,  // an unknown member
        #"{"deviceId": "p", "lat": 1, "lat": 3, "lng": 2}"#,  // a member twice
        #"{"deviceId": "p", "lat": "1", "lng": 2}"#,
        #"{"deviceId": "p", "lat": 1, "lng": 2, "accuracy": "5"}"#,
        #"{"deviceId": "p", "lat": 1, "lng": 2, "at": 1700000000}"#,
        #"{"deviceId": 7, "lat": 1, "lng": 2}"#,
        #"{"deviceId": "p", "lat": 1}"#,  // no longitude
        #"{"lat": 1, "lng": 2}"#,  // no device
        #"{"deviceId": "p", "lat": null, "lng": 2}"#,
        #"{"deviceId": "p", "lat": 1e400, "lng": 2}"#,  // too large for a Double
        #"{"deviceId": "\ud800", "lat": 1, "lng": 2}"#,  // a lone surrogate
        #"{"deviceId": "p", "lat": 1, "lng": 2,}"#,  // not JSON
        #"[{"deviceId": "p", "lat": 1, "lng": 2}]"#,
        "",
    ]

    @Test(arguments: unusual) func anUnusualFixIsLeftToTheDecoder(_ text: String) {
        #expect(LocationBody(plainJSON: Array(text.utf8)) == nil, "\(text)")
    }

    @Test func randomFixesReadAlike() throws {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<500 {
            var members = [
                #""deviceId": "d\#(Int.random(in: 0...9, using: &generator))""#,
                #""lat": \#(Double.random(in: -90...90, using: &generator))"#,
                #""lng": \#(Double.random(in: -180...180, using: &generator))"#,
            ]
            if Bool.random(using: &generator) {
                members.append(#""accuracy": \#(Double.random(in: 0...5_000, using: &generator))"#)
            }
            if Bool.random(using: &generator) {
                members.append(#""at": "2026-11-23T10:00:0\#(Int.random(in: 0...9))Z""#)
            }
            let text = "{" + members.shuffled(using: &generator).joined(separator: ", ") + "}"
            let fast = try #require(LocationBody(plainJSON: Array(text.utf8)), "\(text)")
            #expect(fast == Self.decoded(text), "\(text)")
        }
    }
}
