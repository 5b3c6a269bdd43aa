import Foundation
import MusterWire
import Testing

/// The JSON writer writes what `MusterJSON.encoder()` writes, byte for byte: the stored response objects do not
/// change with it.
@Suite struct JSONWriterTests {
    static func encoded(_ value: some Encodable) throws -> [UInt8] { Array(try MusterJSON.encoder().encode(value)) }

    static func written(_ value: JSONValue) -> [UInt8] {
        var writer = JSONWriter()
        writer.write(value)
        return writer.bytes
    }

    /// Keys and strings that sort and escape unlike plain ASCII words.
    static let texts = [
        "", "a", "B", "aa", "a\u{0}", "é", "e", "😀", "Z9", "q\"b\\s/", "\n\t\r\u{8}\u{c}", "\u{1}\u{1f}\u{7f}",
        "\u{2028}", "日本", "k_1", "K-1",
    ]

    static let numbers: [Double] = [
        0, -0.0, 1, -1, 100, 0.1, 1.5, -2.25, 1e-7, 2.5e-5, 12345.678, 8.999e15, 9e15, 1e16, 1e21, 1e22,
        1.2345678901234568e20, .leastNonzeroMagnitude, 1.7976931348623157e308, Double(Int32.max), -123456789,
    ]

    @Test func scalarsAndEscapesAreWrittenAsTheEncoderWritesThem() throws {
        for text in Self.texts {
            #expect(Self.written(.string(text)) == (try Self.encoded(JSONValue.string(text))), "\(text)")
        }
        for number in Self.numbers {
            #expect(Self.written(.number(number)) == (try Self.encoded(JSONValue.number(number))), "\(number)")
        }
        #expect(Self.written(.null) == (try Self.encoded(JSONValue.null)))
        #expect(Self.written([true, false]) == (try Self.encoded(JSONValue.array([true, false]))))
        let keys = JSONValue.object(Dictionary(uniqueKeysWithValues: Self.texts.map { ($0, JSONValue.string($0)) }))
        #expect(Self.written(keys) == (try Self.encoded(keys)))
    }

    static func random(_ depth: Int, _ generator: inout some RandomNumberGenerator) -> JSONValue {
        switch Int.random(in: 0..<(depth > 2 ? 5 : 7), using: &generator) {
        case 0: return .null
        case 1: return .bool(Bool.random(using: &generator))
        case 2: return .number(numbers.randomElement(using: &generator)!)
        case 3:
            let scale = [1e-9, 1e-3, 1, 1e3, 1e9, 1e17, 1e300].randomElement(using: &generator)!
            return .number(Double.random(in: -1...1, using: &generator) * scale)
        case 4: return .string(texts.randomElement(using: &generator)! + texts.randomElement(using: &generator)!)
        case 5: return .array((0..<Int.random(in: 0...4, using: &generator)).map { _ in random(depth + 1, &generator) })
        default:
            var members: [String: JSONValue] = [:]
            for _ in 0..<Int.random(in: 0...5, using: &generator) {
                members[texts.randomElement(using: &generator)! + "\(Int.random(in: 0...20, using: &generator))"] =
                    random(depth + 1, &generator)
            }
            return .object(members)
        }
    }

    @Test func randomValuesAreWrittenAsTheEncoderWritesThem() throws {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<2_000 {
            let value = Self.random(0, &generator)
            #expect(Self.written(value) == (try Self.encoded(value)), "\(value)")
        }
    }

    @Test func aResponseObjectIsWrittenAsTheEncoderWritesIt() throws {
        var generator = SystemRandomNumberGenerator()
        for round in 0..<500 {
            var values: [String: JSONValue] = [:]
            for i in 0..<Int.random(in: 0...6, using: &generator) { values["f\(i)"] = Self.random(1, &generator) }
            let response = ResponseObject(
                responseTopic: "/t/\(round)", submitValue: Int.random(in: -1_000...Int.max, using: &generator),
                username: Self.texts.randomElement(using: &generator)!, deviceId: "d\(round)",
                deviceName: Self.texts.randomElement(using: &generator)!, values: values,
                state: Bool.random(using: &generator) ? Self.random(1, &generator) : nil)
            #expect(Array(response.jsonData()) == (try Self.encoded(response)), "\(response)")
        }
        let infinite = ResponseObject(
            responseTopic: "/t", submitValue: 0, username: "u", deviceId: "d", deviceName: "n",
            values: ["x": .number(.infinity)])
        #expect(infinite.jsonData().isEmpty, "the encoder refuses an infinite number: no text, as before")
    }

    @Test func aLocationAnswerIsWrittenAsTheEncoderWritesIt() throws {
        var generator = SystemRandomNumberGenerator()
        func text() -> String { Self.texts.randomElement(using: &generator)! }
        func maybe<T>(_ value: @autoclosure () -> T) -> T? { Bool.random(using: &generator) ? value() : nil }
        #expect(LocationAnswer().jsonBytes() == (try Self.encoded(LocationAnswer())))
        for _ in 0..<500 {
            let answer = LocationAnswer(
                transitions: (0..<Int.random(in: 0...3, using: &generator)).map { _ in
                    LocationAnswer.Transition(area: text(), trigger: text())
                },
                outcomes: (0..<Int.random(in: 0...3, using: &generator)).map { _ in
                    LocationAnswer.Outcome(
                        rule: text(), area: text(), fired: Bool.random(using: &generator), reason: text(),
                        messageId: maybe(UUID().uuidString.lowercased()))
                },
                geotriggers: (0..<Int.random(in: 0...2, using: &generator)).map { _ in
                    LocationAnswer.GeotriggerOutcome(
                        geotrigger: text(), fence: text(), notificationType: text(),
                        fired: Bool.random(using: &generator), reason: text(), message: maybe(text()),
                        actions: maybe((0..<Int.random(in: 0...2, using: &generator)).map { _ in text() }),
                        messageId: maybe(text()))
                },
                ignored: maybe(text()))
            #expect(answer.jsonBytes() == (try Self.encoded(answer)), "\(answer)")
        }
    }
}
