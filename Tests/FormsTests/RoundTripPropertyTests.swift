import Foundation
import MusterWire
import PropertyBased
import Testing

@testable import Forms

/// Builds a valid payload and a valid set of answers from generated numbers and words.
enum GeneratedForm {
    /// One field per selector byte; the answer is nil when the user leaves the field alone.
    static func field(_ selector: UInt8, index: Int, number: Int, word: String) -> (json: String, answer: JSONValue?) {
        let id = "f\(index)"
        switch selector % 19 {
        case 0: return (#"{"id": "\#(id)", "type": "inputString"}"#, .string(word))
        case 1:
            return (
                #"{"id": "\#(id)", "type": "inputInteger", "minValue": -1000, "maxValue": 1000}"#,
                .number(Double(number))
            )
        case 2:
            return (
                #"{"id": "\#(id)", "type": "inputReal", "minValue": -200, "maxValue": 200}"#,
                .number(Double(number) / 8)
            )
        case 3: return (#"{"id": "\#(id)", "type": "droplist", "values": ["\#(word)", "x\#(word)"]}"#, .string(word))
        case 4:
            return (
                #"{"id": "\#(id)", "type": "radioButtons", "values": [{"label": "A", "value": 1}, {"label": "B", "value": "b"}]}"#,
                number % 2 == 0 ? .number(1) : .string("b")
            )
        case 5: return (#"{"id": "\#(id)", "type": "checkbox"}"#, number % 3 == 0 ? nil : .bool(number % 2 == 0))
        case 6:
            return (
                #"{"id": "\#(id)", "type": "date"}"#, .string("2000-01-\(String(format: "%02d", 1 + abs(number) % 28))")
            )
        case 7:
            return (
                #"{"id": "\#(id)", "type": "datetime"}"#,
                .string("2000-01-01T\(String(format: "%02d", abs(number) % 24)):30-07:00")
            )
        case 8: return (#"{"id": "\#(id)", "type": "audio"}"#, .string("rcs/audio/\(word).m4a"))
        case 9: return (#"{"id": "\#(id)", "type": "camera"}"#, .string("rcs/image/\(word).jpg"))
        case 10: return (#"{"id": "\#(id)", "type": "video"}"#, .string("rcs/video/\(word).mp4"))
        case 11:
            return (#"{"id": "\#(id)", "type": "markupImage", "source": "camera"}"#, .string("rcs/image/\(word).jpg"))
        case 12:
            let point = MapPoint(longitude: Double(number) / 10, latitude: Double(number) / 20)
            return (#"{"id": "\#(id)", "type": "map"}"#, point.json)
        case 13: return (#"{"id": "\#(id)", "type": "currentDateTime"}"#, nil)
        case 14: return (#"{"id": "\#(id)", "type": "currentLocation"}"#, nil)
        case 15: return (#"{"id": "\#(id)", "type": "barcode", "optional": true}"#, nil)
        case 16: return (#"{"type": "text", "label": "\#(word)"}"#, nil)
        case 17: return (#"{"id": "\#(id)", "type": "inputString", "default": "\#(word)"}"#, nil)
        default: return (#"{"id": "\#(id)", "type": "inputReal", "flavor": "slider", "optional": true}"#, nil)
        }
    }
}

@Suite struct RoundTripPropertyTests {
    @Test func anyValidResponseToAValidPayloadRoundTripsThroughTheResponseObjectsJSON() async {
        await propertyCheck(
            input: Gen.uint8().array(of: 0...12), Gen.int(in: -1000...1000), Gen.letterOrNumber.string(of: 1...10),
            Gen.int(in: 0...3)
        ) { selectors, number, word, buttons in
            var fields: [String] = []
            var answers: [String: JSONValue] = [:]
            for (index, selector) in selectors.enumerated() {
                let made = GeneratedForm.field(selector, index: index, number: number, word: word)
                fields.append(made.json)
                if let answer = made.answer { answers["f\(index)"] = answer }
            }
            for button in 0..<buttons {
                fields.append(#"{"type": "footerButton", "buttonLabel": "B", "value": \#(number + button)}"#)
            }
            let state = number % 2 == 0 ? #"{"n": \#(number), "w": "\#(word)"}"# : nil
            let payload = SeedExamples.payload(fields.joined(separator: ", "), state: state)
            #expect(payload.validate() == ValidationReport())
            let response = ResponseObject(
                submitting: payload, answers: answers, submitValue: buttons == 0 ? 0 : number + buttons - 1,
                responder: Responder(username: word, deviceId: "\(number)", deviceName: "Device \(word)"),
                submittedAt: Date(timeIntervalSince1970: TimeInterval(number) * 86_400),
                location: MapPoint(longitude: Double(number) / 100, latitude: Double(number) / 200))
            #expect(payload.validate(response: response) == [])
            #expect(response.values.count == payload.valueFields.count)
            #expect(response.state == payload.state)
            let decoded = try? ResponseObject(json: response.jsonData())
            #expect(decoded == response)
            if let decoded { #expect(payload.validate(response: decoded) == []) }
        }
    }

    @Test func stateOfAnyShapePassesThroughUnchanged() async {
        await propertyCheck(
            input: Gen.int(in: -1_000_000...1_000_000), Gen.letterOrNumber.string(of: 0...10).array(of: 0...5)
        ) {
            number, words in
            let state = JSONValue.object([
                "n": .number(Double(number)), "words": .array(words.map(JSONValue.string)), "flag": .bool(number < 0),
                "none": .null,
            ])
            let payload = Payload.parse(
                Data(#"{"responseTopic": "/x/y", "fields": [], "state": \#(state)}"#.utf8))
            let response = ResponseObject(
                submitting: payload, answers: [:], submitValue: 0,
                responder: Responder(username: "u", deviceId: "d", deviceName: "n"), submittedAt: Date(),
                location: MapPoint(longitude: 0, latitude: 0))
            #expect((try? ResponseObject(json: response.jsonData()))?.state == state)
            #expect(payload.validate(response: response) == [])
        }
    }
}
