import Forms
import Foundation
import MQTTConnect
import MusterWire
import PropertyBased
import Testing

@Suite struct ReplyRoundTripPropertyTests {
    /// Any form of carried fields, answered through its DialogMessage as the app would (inputs as the widgets
    /// send them, text for numbers and "True"/"False" for switches), validates against the payload.
    @Test func anyCarriedFormAnsweredThroughItsDialogMessageValidates() async {
        await propertyCheck(
            input: Gen.uint8().array(of: 0...8), Gen.int(in: -50...50), Gen.letterOrNumber.string(of: 1...8),
            Gen.int(in: 0...3)
        ) { selectors, number, word, buttons in
            var fields: [String] = []
            var inputs: [String: JSONValue] = [:]
            for (index, selector) in selectors.enumerated() {
                let id = "f\(index)"
                switch selector % 5 {
                case 0:
                    fields.append(#"{"id": "\#(id)", "type": "inputString"}"#)
                    inputs[id] = .string(word)
                case 1:
                    fields.append(#"{"id": "\#(id)", "type": "checkbox"}"#)
                    inputs[id] = number % 2 == 0 ? "True" : "False"
                case 2:
                    fields.append(#"{"id": "\#(id)", "type": "inputInteger", "minValue": -50, "maxValue": 50}"#)
                    inputs[id] = .string(String(number))
                case 3:
                    fields.append(#"{"id": "\#(id)", "type": "inputReal", "minValue": -100, "maxValue": 100}"#)
                    inputs[id] = .number(Double(number) / 4)
                default:
                    fields.append(#"{"type": "text", "label": "\#(word)"}"#)
                }
            }
            for button in 0..<buttons {
                fields.append(#"{"type": "footerButton", "buttonLabel": "B\#(button)", "value": \#(number + button)}"#)
            }
            let payload = Fixture.payload(fields.joined(separator: ", "), state: #"{"w": "\#(word)"}"#)
            let mapping = DialogMapping(payload: payload, title: word, body: nil, messageID: Fixture.messageID)
            #expect(mapping.isComplete)
            guard let option = mapping.message.options?.last else {
                Issue.record("no options")
                return
            }
            var object = option.replyObject ?? [:]
            object.merge(inputs) { _, input in input }
            let read = DevicePublication.read(JSONValue.object(object).jsonData(), sizeLimit: 1 << 20)
            guard case .success(let publication) = read, let reply = publication.reply else {
                Issue.record("\(read) is not a reply")
                return
            }
            let response = reply.response(
                answering: payload, responder: Responder(username: "u", deviceId: "d", deviceName: "n")
            ).response
            #expect(payload.validate(response: response) == [])
            #expect(response.submitValue == (buttons == 0 ? 0 : number + buttons - 1))
            #expect(reply.messageID == Fixture.messageID)
        }
    }
}
