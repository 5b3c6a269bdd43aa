import Foundation
import MusterWire
import Testing

@testable import Forms

@Suite struct ResponseObjectTests {
    static let joe = Responder(
        username: "joeuser@gmail.com", deviceId: "75e0540bf21638bd", deviceName: "HTC Desire 310")
    static let clock = Date(timeIntervalSince1970: 1_795_795_419)
    static let here = MapPoint(longitude: -117.918974, latitude: 33.812092)

    @Test func theSeedsResponseObjectDecodesValidatesAndEncodesToTheSameJSON() throws {
        let data = Data(SeedExamples.response.utf8)
        let response = try ResponseObject(json: data)
        #expect(response.responseTopic == "/a/b/c" && response.submitValue == 0)
        #expect(response.username == "joeuser@gmail.com" && response.deviceId == "75e0540bf21638bd")
        #expect(response.deviceName == "HTC Desire 310")
        #expect(response.values == ["simpleDropList": .string("Green")])
        #expect(response.state == .object(["myStateData": .number(123)]))
        #expect(try JSONValue(json: response.jsonData()) == JSONValue(json: data))
        let payload = SeedExamples.payload(SeedExamples.fields[14].json, state: #"{"myStateData":123}"#)
        #expect(payload.validate(response: response).isEmpty)
    }

    @Test func theSeedsOpeningExampleAnsweredGreenGivesTheSeedsResponseObject() throws {
        // Lines 23–34 and 976–987: the payload of the simple example and the response it produces.
        let payload = Payload.parse(
            Data(
                #"""
                {
                    "responseTopic": "/a/b/c",
                    "fields": [
                        {
                             "id": "simpleDropList",
                             "type": "droplist",
                             "label": "Pick your favorite color",
                             "values": ["Red","Green","Blue"],
                             "default": "Blue"
                        }
                    ],
                    "state": {"myStateData":123}
                }
                """#.utf8))
        #expect(payload.validate() == ValidationReport())
        let response = ResponseObject(
            submitting: payload, answers: ["simpleDropList": .string("Green")], submitValue: 0, responder: Self.joe,
            submittedAt: Self.clock, location: Self.here)
        #expect(try JSONValue(json: response.jsonData()) == JSONValue(json: Data(SeedExamples.response.utf8)))
    }

    @Test(arguments: [
        (0, "audio1", "rcs/audio/f9ceddab-add2-4b10-a602-65f82cc0a9da.m4a"),
        (4, "mySelfie", "rcs/image/a20ab0c1-337d-4ace-af30-3c7b9136d0be.jpg"),
        (26, "myMarkedUpImage", "rcs/image/a20ab0c1-337d-4ace-af30-3c7b9136d0be.jpg"),
        (31, "video1", "rcs/video/15879441-7910-445e-81e6-fd91a2a7d28e.mp4"),
    ])
    func theSeedsMediaResponsesAreValidForTheirFields(example: Int, id: String, name: String) throws {
        let payload = SeedExamples.payload(SeedExamples.fields[example].json)
        #expect(payload.fields.first?.id == id)
        let json = #"""
            {"responseTopic": "/a/b/c", "submitValue": 0, "username": "joeuser@gmail.com",
             "deviceId": "75e0540bf21638bd", "deviceName": "HTC Desire 310", "values": {"\#(id)": "\#(name)"}}
            """#
        let response = try ResponseObject(json: Data(json.utf8))
        #expect(payload.validate(response: response).isEmpty)
        #expect(response.state == nil)
        #expect(try JSONValue(json: response.jsonData()).objectValue?["state"] == nil)
    }

    @Test func submittingFillsAnswersDefaultsNullsClockAndLocation() throws {
        let payload = SeedExamples.payload(
            #"""
            {"id": "now", "type": "currentDateTime"}, {"id": "here", "type": "currentLocation"},
            {"id": "cb", "type": "checkbox"}, {"id": "slide", "type": "inputInteger", "flavor": "slider", "minValue": 3},
            {"id": "named", "type": "inputString", "default": "Joe"}, {"id": "skip", "type": "barcode", "optional": true},
            {"id": "pick", "type": "droplist", "values": ["Red","Green","Blue"], "default": "Blue"},
            {"id": "where", "type": "map", "default": {"type": "Point", "coordinates": [1.5, 2.5]}},
            {"id": "said", "type": "inputString"}, {"type": "map"}, {"id": "label", "type": "text", "label": "x"},
            {"type": "footerButton", "buttonLabel": "Go", "value": 7}
            """#, state: "null")
        #expect(payload.validate().isValid)
        let response = ResponseObject(
            submitting: payload, answers: ["said": .string("hello"), "pick": .string("Red"), "unknown": .number(1)],
            submitValue: 7, responder: Self.joe, submittedAt: Self.clock, location: Self.here)
        #expect(
            response.values == [
                "now": .string("2026-11-27T16:03:39Z"), "here": Self.here.json, "cb": .bool(false),
                "slide": .number(3), "named": .string("Joe"), "skip": .null, "pick": .string("Red"),
                "where": .object(["longitude": .number(1.5), "latitude": .number(2.5)]), "said": .string("hello"),
            ])
        #expect(response.state == .null)
        #expect(payload.validate(response: response).isEmpty)
        let text = String(decoding: response.jsonData(), as: UTF8.self)
        #expect(text.contains(#""state":null"#))
        #expect(text.contains(#""submitValue":7"#))
        #expect(try ResponseObject(json: response.jsonData()) == response)
    }

    @Test func aRequiredFieldLeftAloneFailsValidationAfterSubmitting() {
        let payload = SeedExamples.payload(#"{"id": "said", "type": "inputString"}"#)
        let response = ResponseObject(
            submitting: payload, answers: [:], submitValue: 0, responder: Self.joe, submittedAt: Self.clock,
            location: Self.here)
        #expect(response.values == ["said": .null])
        #expect(payload.validate(response: response).map(\.rule) == [.valueRequired])
    }
}
