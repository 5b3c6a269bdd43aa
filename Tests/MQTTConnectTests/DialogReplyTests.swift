import Forms
import Foundation
import MQTTConnect
import MusterWire
import Testing

@Suite struct DialogReplyTests {
    private let responder = Responder(username: "kristian", deviceId: "9A093D8F", deviceName: "Cedalo iPhone")
    private let id = Fixture.messageID.uuidString.lowercased()

    /// What the app publishes for `option`: its ReplyObject with the inputs beside it, plus the device's members.
    private func published(_ option: DialogOption, inputs: [String: JSONValue]) -> Data {
        var object = option.replyObject ?? [:]
        object.merge(inputs) { _, input in input }
        object["iPhoneID"] = "9A093D8F"
        object["SessionObject"] = ["sheet": 1]
        return JSONValue.object(object).jsonData()
    }

    @Test func aButtonPickedWithInputsRoundTripsToAValidResponse() throws {
        let payload = Fixture.payload(
            #"""
            {"id": "name", "type": "inputString"}, {"id": "glasses", "type": "checkbox"},
            {"id": "count", "type": "inputInteger", "minValue": 1, "maxValue": 5},
            {"id": "litre", "type": "inputReal", "minValue": 0, "maxValue": 1},
            {"id": "age", "type": "inputInteger", "optional": true},
            {"type": "footerButton", "buttonLabel": "Send", "value": 7},
            {"type": "footerButton", "buttonLabel": "Cancel", "value": 8}
            """#, state: #"{"row": 4}"#)
        let mapping = DialogMapping(payload: payload, title: "T", body: nil, messageID: Fixture.messageID)
        #expect(mapping.isComplete)
        let send = try #require(mapping.message.options?.first)
        let body = published(
            send, inputs: ["name": "Ann", "glasses": "True", "count": 3, "litre": "0.25", "age": "", "Battery": 50])
        let publication = try DevicePublication.read(body, sizeLimit: 1 << 20).get()
        let reply = try #require(publication.reply)
        #expect(reply.messageID == Fixture.messageID)
        #expect(publication.sessionObject == ["sheet": 1])
        let rebuilt = reply.response(answering: payload, responder: responder)
        #expect(
            rebuilt.response.values == ["name": "Ann", "glasses": true, "count": 3, "litre": 0.25, "age": .null])
        #expect(rebuilt.response.submitValue == 7)
        #expect(rebuilt.response.state == ["row": 4])
        #expect(rebuilt.response.responseTopic == "/site/answers")
        #expect(rebuilt.ignoredMembers == [])
        #expect(payload.validate(response: rebuilt.response) == [])
    }

    @Test func aChoicePickedRoundTripsWithTheValueUnderItsFieldId() throws {
        let payload = Fixture.payload(
            #"{"id": "colour", "type": "radioButtons", "values": [{"label": "Red", "value": 1}, {"label": "Blue", "value": "b"}]}, {"id": "note", "type": "inputString", "default": "none"}"#
        )
        let mapping = DialogMapping(payload: payload, title: nil, body: nil, messageID: Fixture.messageID)
        let blue = try #require(mapping.message.options?.last)
        let body = published(blue, inputs: ["Pressure": 1013])
        let reply = try #require(try DevicePublication.read(body, sizeLimit: 1 << 20).get().reply)
        let rebuilt = reply.response(answering: payload, responder: responder)
        #expect(rebuilt.response.values == ["colour": "b", "note": "none"])
        #expect(rebuilt.response.submitValue == 0)
        #expect(rebuilt.ignoredMembers == ["Pressure"])
        #expect(payload.validate(response: rebuilt.response) == [])
    }

    @Test func anInstantValueAloneIsAReplyToTheLastMessageSent() throws {
        let payload = Fixture.payload(#"{"id": "age", "type": "inputInteger", "optional": true}"#)
        let publication = try Fixture.read(#"{"iPhoneID": "X", "age": "42"}"#, inputKeys: ["age"]).get()
        let reply = try #require(publication.reply)
        #expect(reply.isInstant)
        #expect(reply.messageID(orLastSent: Fixture.messageID) == Fixture.messageID)
        let rebuilt = reply.response(answering: payload, responder: responder)
        #expect(rebuilt.response.values == ["age": 42])
        #expect(payload.validate(response: rebuilt.response) == [])
        #expect(try Fixture.read(#"{"iPhoneID": "X", "age": "42"}"#).get().reply == nil)
    }

    /// Seed 001's Slider is continuous: an integer field sent as one (a range of over 100 steps) gets the fraction
    /// it shows, taken as the nearest whole number; a Stepper's or NumberField's fraction is not rounded (validation
    /// refuses it).
    @Test func aSlidersFractionForAnIntegerFieldIsRoundedAndOnlyASlidersIs() throws {
        let payload = Fixture.payload(
            #"""
            {"id": "kg", "type": "inputInteger", "minValue": 0, "maxValue": 300, "default": 70},
            {"id": "count", "type": "inputInteger", "minValue": 1, "maxValue": 5},
            {"id": "age", "type": "inputInteger"},
            {"id": "litre", "type": "inputReal", "minValue": 0, "maxValue": 1}
            """#)
        let mapping = DialogMapping(payload: payload, title: nil, body: nil, messageID: Fixture.messageID)
        #expect(mapping.message.inputFields?.map(\.type) == [.slider, .stepper, .numberField, .slider])
        let reply = DialogReply(
            messageID: Fixture.messageID, submitValue: 0,
            members: ["kg": 81.62, "count": 2.5, "age": 41.2, "litre": 0.37])
        let response = reply.response(answering: payload, responder: responder).response
        #expect(response.values == ["kg": 82, "count": 2.5, "age": 41.2, "litre": 0.37])
        #expect(payload.validate(response: response).map(\.path) == ["values.count", "values.age"])
    }

    @Test func valuesOfTheWrongFormReachValidationAndAreRefusedThere() throws {
        let payload = Fixture.payload(
            #"{"id": "glasses", "type": "checkbox"}, {"id": "count", "type": "inputInteger", "minValue": 1, "maxValue": 5}"#
        )
        let reply = DialogReply(
            messageID: Fixture.messageID, submitValue: 0, members: ["glasses": "maybe", "count": "9"])
        let response = reply.response(answering: payload, responder: responder).response
        #expect(response.values == ["glasses": "maybe", "count": 9])
        #expect(payload.validate(response: response).map(\.path) == ["values.glasses", "values.count"])
    }
}
