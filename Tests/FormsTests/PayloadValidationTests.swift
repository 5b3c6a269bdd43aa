import Foundation
import Testing

@testable import Forms

/// One malformed variant of a seed example per row: the rule it breaks and where the error points.
struct BrokenField: Sendable, CustomTestStringConvertible {
    let fields: String
    let rule: FormRule
    let path: String

    init(_ fields: String, _ rule: FormRule, at path: String) {
        self.fields = fields
        self.rule = rule
        self.path = path
    }

    var testDescription: String { "\(rule) at \(path)" }
}

@Suite struct PayloadValidationTests {
    static let broken: [BrokenField] = [
        .init(#"{"type": "audio", "label": "no id"}"#, .missingID, at: #"fields[0].id"#),
        .init(#"{"type": "currentLocation"}"#, .missingID, at: #"fields[0].id"#),
        .init(#"{"id": "", "type": "inputString"}"#, .missingID, at: #"fields[0] (id "").id"#),
        .init(#"{"id": 7, "type": "inputString"}"#, .wrongType, at: #"fields[0].id"#),
        .init(
            #"{"id": "a", "type": "date"}, {"id": "a", "type": "checkbox"}"#, .duplicateID,
            at: #"fields[1] (id "a")"#),
        .init(
            #"{"id": "a", "type": "droplist", "values": ["Red","Green"], "default": "Blue"}"#, .defaultNotInValues,
            at: #"fields[0] (id "a").default"#),
        .init(
            #"{"id": "a", "type": "radioButtons", "values": ["Red","Green"], "default": 1}"#, .defaultNotInValues,
            at: #"fields[0] (id "a").default"#),
        .init(
            #"{"id": "a", "type": "droplist", "values": [{"label": "Red", "value": 1}], "default": "1"}"#,
            .defaultNotInValues, at: #"fields[0] (id "a").default"#),
        .init(#"{"id": "a", "type": "droplist"}"#, .missingProperty, at: #"fields[0] (id "a").values"#),
        .init(#"{"id": "a", "type": "radioButtons", "values": []}"#, .wrongType, at: #"fields[0] (id "a").values"#),
        .init(
            #"{"id": "a", "type": "droplist", "values": [{"label": "Red", "value": 1}, {"label": "x"}]}"#, .wrongType,
            at: #"fields[0] (id "a").values[1]"#),
        .init(
            #"{"id": "n", "type": "inputInteger", "minValue": 20, "maxValue": 20}"#, .badRange,
            at: #"fields[0] (id "n").minValue"#),
        .init(#"{"id": "n", "type": "inputReal", "minValue": 200}"#, .badRange, at: #"fields[0] (id "n").minValue"#),
        .init(
            #"{"id": "n", "type": "inputInteger", "minValue": -10, "maxValue": 20, "default": 21}"#, .outOfRange,
            at: #"fields[0] (id "n").default"#),
        .init(
            #"{"id": "n", "type": "inputReal", "flavor": "slider", "default": -0.5}"#, .outOfRange,
            at: #"fields[0] (id "n").default"#),
        .init(
            #"{"id": "n", "type": "inputInteger", "default": 2.5}"#, .notInteger, at: #"fields[0] (id "n").default"#),
        .init(
            #"{"id": "n", "type": "inputInteger", "maxValue": 9.5}"#, .notInteger,
            at: #"fields[0] (id "n").maxValue"#),
        .init(
            #"{"id": "n", "type": "inputInteger", "maxValue": "20"}"#, .wrongType,
            at: #"fields[0] (id "n").maxValue"#),
        .init(#"{"id": "n", "type": "inputReal", "flavor": "dial"}"#, .notAllowed, at: #"fields[0] (id "n").flavor"#),
        .init(#"{"id": "d", "type": "date", "default": "20/04/1991"}"#, .badDate, at: #"fields[0] (id "d").default"#),
        .init(
            #"{"id": "d", "type": "date", "default": "1991-04-20T09:30-07:00"}"#, .badDate,
            at: #"fields[0] (id "d").default"#),
        .init(
            #"{"id": "d", "type": "datetime", "default": "1991-04-20"}"#, .badDate, at: #"fields[0] (id "d").default"#),
        .init(#"{"type": "text", "label": "x", "color": "red"}"#, .badColour, at: #"fields[0].color"#),
        .init(##"{"type": "text", "label": "x", "color": "#ff00"}"##, .badColour, at: #"fields[0].color"#),
        .init(
            ##"{"type": "inlineButton", "buttonLabel": "B", "value": 1, "buttonBackgroundColor": "#gg0000"}"##,
            .badColour, at: #"fields[0].buttonBackgroundColor"#),
        .init(
            #"{"type": "map", "markers": [{"longitude": 1, "latitude": 2, "color": 400}]}"#, .badColour,
            at: #"fields[0].markers[0].color"#),
        .init(
            #"{"type": "map", "markers": [{"longitude": 1, "latitude": 2, "color": "purple"}]}"#, .badColour,
            at: #"fields[0].markers[0].color"#),
        .init(#"{"type": "map", "markers": [{"label": "nowhere"}]}"#, .badLocation, at: #"fields[0].markers[0]"#),
        .init(#"{"type": "map", "location": {"lng": 1, "lat": 2}}"#, .badLocation, at: #"fields[0].location"#),
        .init(
            #"{"id": "m", "type": "map", "default": {"type": "Point", "coordinates": [1]}}"#, .badLocation,
            at: #"fields[0] (id "m").default"#),
        .init(#"{"type": "map", "maptype": "terrain"}"#, .notAllowed, at: #"fields[0].maptype"#),
        .init(#"{"type": "text", "label": "x", "align": "justify"}"#, .notAllowed, at: #"fields[0].align"#),
        .init(#"{"type": "text", "label": "x", "style": "underline"}"#, .notAllowed, at: #"fields[0].style"#),
        .init(#"{"type": "text", "label": "x", "size": "big"}"#, .wrongType, at: #"fields[0].size"#),
        .init(#"{"type": "document", "flavor": "pdf"}"#, .missingProperty, at: #"fields[0].url"#),
        .init(#"{"type": "document", "flavor": "doc", "url": "u"}"#, .notAllowed, at: #"fields[0].flavor"#),
        .init(
            #"{"type": "document", "flavor": "vaudio", "url": "rcs/video/x.mp4"}"#, .badDocumentName,
            at: #"fields[0].url"#),
        .init(#"{"type": "image"}"#, .missingProperty, at: #"fields[0].url"#),
        .init(#"{"type": "footerButton", "value": 1}"#, .missingProperty, at: #"fields[0].buttonLabel"#),
        .init(#"{"type": "footerButton", "buttonLabel": "B"}"#, .missingProperty, at: #"fields[0].value"#),
        .init(#"{"type": "inlineButton", "buttonLabel": "B", "value": 1.5}"#, .notInteger, at: #"fields[0].value"#),
        .init(
            #"{"type": "footerButton", "buttonLabel": "A", "value": 1}, {"type": "inlineButton", "buttonLabel": "B", "value": 1}"#,
            .duplicateButtonValue, at: #"fields[1]"#),
        .init(#"{"type": "buttonCluster"}"#, .missingProperty, at: #"fields[0].values"#),
        .init(
            #"{"type": "buttonCluster", "values": [{"label": "Go", "value": "go"}]}"#, .wrongType,
            at: #"fields[0].values[0]"#),
        .init(#"{"id": "c", "type": "checkbox", "default": "yes"}"#, .wrongType, at: #"fields[0] (id "c").default"#),
        .init(
            #"{"id": "a", "type": "audio", "maxDurationSeconds": "ten"}"#, .wrongType,
            at: #"fields[0] (id "a").maxDurationSeconds"#),
        .init(#"{"id": "a", "type": "audio", "optional": "true"}"#, .wrongType, at: #"fields[0] (id "a").optional"#),
        // A limit no recording can meet would make the form unanswerable.
        .init(#"{"id": "a", "type": "audio", "maxSizeK": 0}"#, .outOfRange, at: #"fields[0] (id "a").maxSizeK"#),
        .init(
            #"{"id": "v", "type": "video", "maxDurationSeconds": -1}"#, .outOfRange,
            at: #"fields[0] (id "v").maxDurationSeconds"#),
        .init(#"{"label": "no type"}"#, .missingType, at: #"fields[0].type"#),
        .init(#"42"#, .badFields, at: #"payload.fields[0]"#),
    ]

    @Test(arguments: broken)
    func eachBrokenRuleGivesOneErrorNamingTheFieldAndRule(row: BrokenField) {
        let report = SeedExamples.payload(row.fields).validate()
        #expect(report.errors.count == 1, "\(report.errors)")
        #expect(report.errors.first?.rule == row.rule, "\(report.errors)")
        #expect(report.errors.first?.path == row.path, "\(report.errors)")
        #expect(report.errors.first.map { !$0.description.contains("\n") } == true)
    }

    @Test(arguments: [
        (#"{"fields": []}"#, FormRule.missingTopic),
        (#"{"responseTopic": "a/b/c", "fields": []}"#, .badTopic),
        (#"{"responseTopic": "/a//c", "fields": []}"#, .badTopic),
        (#"{"responseTopic": 12, "fields": []}"#, .wrongType),
        (#"{"responseTopic": "/a/b/c", "fields": {}}"#, .badFields),
        (#"{"responseTopic": "/a/b/c", "fields": [], "payloadName": 3}"#, .wrongType),
        (#"["not", "an", "object"]"#, .notJSON),
        (#"{"responseTopic": "/a/b/c", "#, .notJSON),
    ])
    func payloadLevelRulesGiveOneError(json: String, rule: FormRule) {
        let report = Payload.parse(Data(json.utf8)).validate()
        #expect(report.errors.map(\.rule) == [rule])
    }

    @Test func aPayloadThatIsNotJSONSaysWhereAndWhy() {
        let deep =
            #"{"responseTopic": "/a", "state": "# + String(repeating: "[", count: 600)
            + String(repeating: "]", count: 600) + "}"
        let report = Payload.parse(Data(deep.utf8)).validate()
        #expect(report.errors.map(\.rule) == [.notJSON])
        #expect(report.errors.first?.message.contains("nested more than 512 levels deep") == true, "\(report.errors)")
    }

    @Test func unknownTypesAreWarningsNotErrors() {
        let report = SeedExamples.payload(#"{"id": "video1", "type": "video1"}, {"id": "s", "type": "inputString"}"#)
            .validate()
        #expect(report.errors.isEmpty)
        #expect(report.warnings.map(\.rule) == [.unknownType])
        #expect(
            report.warnings.first?.description
                == #"fields[0] (id "video1"): type "video1" is not a known field type; ignored (did you mean "video"?) [unknown-type]"#
        )
    }

    @Test(arguments: [
        ("Text", "text"), ("InputString", "inputString"), ("dropList", "droplist"), ("textt", "text"),
        ("inputInterger", "inputInteger"), ("radio", "radioButtons"), ("String", "inputString"),
        ("label", "sectionLabel"), ("location", "currentLocation"), ("button", nil), ("input", nil),
        ("NumberInput", nil), ("slider", nil), ("tx", nil),
    ])
    func anUnknownTypeCloseToAKnownOneNamesIt(written: String, meant: String?) {
        let report = SeedExamples.payload(#"{"id": "f", "type": "\#(written)"}"#).validate()
        #expect(report.errors.isEmpty)
        let message = report.warnings.first?.message ?? ""
        #expect(message.hasPrefix(#"type "\#(written)" is not a known field type; ignored"#), "\(message)")
        #expect(FieldType.nearest(to: written)?.rawValue == meant)
        if let meant {
            #expect(message.hasSuffix(#"(did you mean "\#(meant)"?)"#), "\(message)")
        } else {
            #expect(!message.contains("did you mean"), "\(message)")
        }
    }

    @Test func aSectionLabelIgnoresItsStylingPropertiesAsTheSeedSays() {
        let report = SeedExamples.payload(
            #"{"type": "sectionLabel", "label": "Important Section", "size": "huge", "align": "justify", "color": "blue", "style": 3}"#
        ).validate()
        #expect(report.errors.isEmpty, "\(report.errors)")
        // A text field's styling is still checked.
        let text = SeedExamples.payload(#"{"type": "text", "label": "t", "align": "justify"}"#).validate()
        #expect(text.errors.map(\.path) == ["fields[0].align"])
    }

    @Test func aDefaultOnAFieldThatTakesNoneIsAWarning() {
        let report = SeedExamples.payload(#"{"id": "a", "type": "audio", "default": "x"}"#).validate()
        #expect(report.errors.isEmpty)
        #expect(report.warnings.map(\.path) == [#"fields[0] (id "a").default"#])
    }

    @Test func independentProblemsAreEachReported() {
        let report = SeedExamples.payload(
            #"{"type": "date"}, {"id": "n", "type": "inputInteger", "minValue": 5, "maxValue": 1}, {"type": "text", "label": "t", "color": "blue"}"#
        ).validate()
        #expect(report.errors.map(\.rule) == [.missingID, .badRange, .badColour])
    }
}
