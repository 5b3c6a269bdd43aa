import Foundation
import MusterWire
import Testing

@testable import Forms

/// One response value for a one-field payload: nil `rule` means the value is accepted.
struct AnswerCase: Sendable, CustomTestStringConvertible {
    let field: String
    let value: JSONValue
    let rule: FormRule?

    init(_ field: String, _ value: JSONValue, _ rule: FormRule?) {
        self.field = field
        self.value = value
        self.rule = rule
    }

    var testDescription: String { "\(field) ← \(value): \(rule.map(String.init(describing:)) ?? "accepted")" }
}

@Suite struct ResponseValidationTests {
    static let joe = Responder(
        username: "joeuser@gmail.com", deviceId: "75e0540bf21638bd", deviceName: "HTC Desire 310")

    static let answers: [AnswerCase] = [
        // The three cases: required, default, optional-with-null.
        .init(#"{"id": "f", "type": "inputString"}"#, .null, .valueRequired),
        .init(#"{"id": "f", "type": "inputString"}"#, .string("Joe"), nil),
        .init(#"{"id": "f", "type": "inputString", "default": "Joe"}"#, .null, .valueRequired),
        .init(#"{"id": "f", "type": "inputString", "optional": true}"#, .null, nil),
        .init(#"{"id": "f", "type": "inputString", "optional": true, "default": "x"}"#, .null, .valueRequired),
        .init(#"{"id": "f", "type": "inputString"}"#, .number(3), .wrongType),
        .init(#"{"id": "f", "type": "barcode", "optional": true}"#, .null, nil),
        .init(#"{"id": "f", "type": "barcode"}"#, .bool(true), .wrongType),
        // Checkbox: always optional.
        .init(#"{"id": "f", "type": "checkbox"}"#, .null, nil),
        .init(#"{"id": "f", "type": "checkbox"}"#, .bool(true), nil),
        .init(#"{"id": "f", "type": "checkbox"}"#, .string("true"), .wrongType),
        // Numbers: integer vs real, ranges, sliders ignore optional.
        .init(#"{"id": "f", "type": "inputInteger", "minValue": -10, "maxValue": 20}"#, .number(20), nil),
        .init(#"{"id": "f", "type": "inputInteger", "minValue": -10, "maxValue": 20}"#, .number(2.5), .notInteger),
        .init(#"{"id": "f", "type": "inputInteger", "minValue": -10, "maxValue": 20}"#, .number(21), .outOfRange),
        .init(#"{"id": "f", "type": "inputReal", "minValue": -10.0, "maxValue": 20.0}"#, .number(2.5), nil),
        .init(#"{"id": "f", "type": "inputReal", "minValue": -10.0, "maxValue": 20.0}"#, .number(-10.5), .outOfRange),
        .init(#"{"id": "f", "type": "inputReal"}"#, .string("2.5"), .wrongType),
        .init(#"{"id": "f", "type": "inputReal", "optional": true}"#, .null, nil),
        .init(#"{"id": "f", "type": "inputReal", "flavor": "slider", "optional": true}"#, .null, .valueRequired),
        .init(#"{"id": "f", "type": "inputInteger", "flavor": "slider", "optional": true}"#, .null, .valueRequired),
        // Enumerated values, simple and label/value forms.
        .init(#"{"id": "f", "type": "droplist", "values": ["Red","Green","Blue"]}"#, .string("Green"), nil),
        .init(#"{"id": "f", "type": "droplist", "values": ["Red","Green","Blue"]}"#, .string("green"), .notInValues),
        .init(
            #"{"id": "f", "type": "radioButtons", "values": [{"label": "Red", "value": 1}, {"label": "Green", "value": 2}]}"#,
            .number(2), nil),
        .init(
            #"{"id": "f", "type": "radioButtons", "values": [{"label": "Red", "value": 1}, {"label": "Green", "value": 2}]}"#,
            .string("Green"), .notInValues),
        .init(#"{"id": "f", "type": "droplist", "values": ["Red"], "optional": true}"#, .null, nil),
        // ISO date vs date-time.
        .init(#"{"id": "f", "type": "date"}"#, .string("1991-04-20"), nil),
        .init(#"{"id": "f", "type": "date"}"#, .string("1991-04-20T09:30-07:00"), .badDate),
        .init(#"{"id": "f", "type": "datetime"}"#, .string("1991-04-20T09:30-07:00"), nil),
        .init(#"{"id": "f", "type": "datetime"}"#, .string("1991-04-20"), .badDate),
        .init(#"{"id": "f", "type": "datetime"}"#, .number(1991), .wrongType),
        .init(#"{"id": "f", "type": "currentDateTime"}"#, .string("2026-11-21T16:03:39Z"), nil),
        .init(#"{"id": "f", "type": "currentDateTime"}"#, .null, .valueRequired),
        // Map and current location forms.
        .init(#"{"id": "f", "type": "map"}"#, .object(["longitude": .number(-117.9), "latitude": .number(33.8)]), nil),
        .init(
            #"{"id": "f", "type": "map"}"#,
            .object(["type": .string("Point"), "coordinates": .array([.number(-117.9), .number(33.8)])]), nil),
        .init(#"{"id": "f", "type": "map"}"#, .array([.number(-117.9), .number(33.8)]), .badLocation),
        .init(#"{"id": "f", "type": "map", "optional": true}"#, .null, nil),
        .init(
            #"{"id": "f", "type": "currentLocation"}"#, .object(["longitude": .number(1), "latitude": .number(95)]),
            .badLocation),
        // Document names for media fields.
        .init(#"{"id": "f", "type": "audio"}"#, .string("rcs/audio/f9ceddab-add2-4b10-a602-65f82cc0a9da.m4a"), nil),
        .init(#"{"id": "f", "type": "audio"}"#, .string("rcs/image/f9ceddab.jpg"), .badDocumentName),
        .init(#"{"id": "f", "type": "audio"}"#, .null, .valueRequired),
        .init(#"{"id": "f", "type": "audio", "optional": true}"#, .null, nil),
        .init(#"{"id": "f", "type": "camera"}"#, .string("rcs/image/a20ab0c1-337d-4ace-af30-3c7b9136d0be.jpg"), nil),
        .init(#"{"id": "f", "type": "camera"}"#, .string("https://example.com/a.jpg"), .badDocumentName),
        .init(#"{"id": "f", "type": "video"}"#, .string("rcs/video/15879441-7910-445e-81e6-fd91a2a7d28e.mp4"), nil),
        .init(#"{"id": "f", "type": "video"}"#, .string("rcs/video/"), .badDocumentName),
        .init(#"{"id": "f", "type": "markupImage"}"#, .string("rcs/image/a20ab0c1.jpg"), nil),
        .init(#"{"id": "f", "type": "markupImage"}"#, .string("rcs/image/sub/a.jpg"), .badDocumentName),
        .init(#"{"id": "f", "type": "video"}"#, .number(1), .wrongType),
    ]

    @Test(arguments: answers)
    func eachValueIsCheckedAgainstItsField(row: AnswerCase) {
        let payload = SeedExamples.payload(row.field)
        #expect(payload.validate().isValid)
        let response = ResponseObject(
            responseTopic: "/a/b/c", submitValue: 0, responder: Self.joe, values: ["f": row.value])
        let errors = payload.validate(response: response)
        #expect(errors.map(\.rule) == (row.rule.map { [$0] } ?? []), "\(errors)")
        #expect(errors.allSatisfy { $0.path == "values.f" })
    }

    @Test(
        arguments: [
            ("", 0, nil), ("", 7, FormRule.badSubmitValue),
            (#", {"type": "footerButton", "buttonLabel": "Stop", "value": 100}"#, 100, nil),
            (#", {"type": "footerButton", "buttonLabel": "Stop", "value": 100}"#, 0, .badSubmitValue),
            (#", {"type": "inlineButton", "buttonLabel": "Go", "value": 5}"#, 5, nil),
            (
                #", {"type": "buttonCluster", "values": [{"label": "Stop", "value": 1}, {"label": "Go", "value": 2}]}"#,
                2, nil
            ),
            (
                #", {"type": "buttonCluster", "values": [{"label": "Stop", "value": 1}, {"label": "Go", "value": 2}]}"#,
                3, .badSubmitValue
            ),
        ] as [(String, Int, FormRule?)])
    func submitValueIsZeroWithoutButtonsElseADeclaredValue(buttons: String, submitValue: Int, rule: FormRule?) {
        let payload = SeedExamples.payload(#"{"id": "f", "type": "checkbox"}"# + buttons)
        let response = ResponseObject(
            responseTopic: "/a/b/c", submitValue: submitValue, responder: Self.joe, values: ["f": .bool(false)])
        #expect(payload.validate(response: response).map(\.rule) == (rule.map { [$0] } ?? []))
    }

    @Test func valuesForUnknownIdsTopicAndStateChangesAreErrors() {
        let payload = SeedExamples.payload(
            #"{"id": "f", "type": "checkbox"}, {"type": "text", "label": "t"}"#, state: "[1]")
        let response = ResponseObject(
            responseTopic: "/a/b/d", submitValue: 0, responder: Self.joe,
            values: ["f": .bool(true), "g": .string("x")], state: .array([.number(2)]))
        let errors = payload.validate(response: response)
        #expect(errors.map(\.path) == ["responseTopic", "state", "values.g"])
        #expect(errors.map(\.rule) == [.mismatch, .mismatch, .unexpectedValue])
    }

    @Test func aMissingValueCountsAsNull() {
        let payload = SeedExamples.payload(
            #"{"id": "req", "type": "date"}, {"id": "opt", "type": "date", "optional": true}"#)
        let response = ResponseObject(responseTopic: "/a/b/c", submitValue: 0, responder: Self.joe, values: [:])
        let errors = payload.validate(response: response)
        #expect(errors.map(\.path) == ["values.req"])
        #expect(
            errors.first?.description
                == "values.req: is missing or null but the date field is not optional [value-required]")
    }
}
