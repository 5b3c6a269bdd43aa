import Foundation
import MusterWire
import Testing

@testable import Forms

@Suite struct PayloadModelTests {
    @Test(arguments: SeedExamples.fields.indices)
    func everySeedExampleParsesAsItsTypeWithoutProblems(position: Int) {
        let example = SeedExamples.fields[position]
        let payload = SeedExamples.payload(example.json)
        #expect(payload.fields.count == 1)
        #expect(payload.fields.first?.type == example.type)
        let report = payload.validate()
        #expect(report.errors.isEmpty, "\(report.errors)")
        #expect(report.warnings.isEmpty, "\(report.warnings)")
    }

    @Test func allSeedExamplesTogetherAreOneValidPayloadCoveringAllTypes() {
        let payload = SeedExamples.all
        #expect(payload.validate() == ValidationReport())
        #expect(Set(payload.fields.compactMap(\.type)) == Set(FieldType.allCases))
        // The seed's type table (lines 97–121) lists 24 types; the issue's "25" is a miscount.
        #expect(FieldType.allCases.count == 24)
        #expect(payload.state == .object(["myStateData": .number(123)]))
    }

    @Test func omittedPropertiesTakeTheSeedsDefaults() throws {
        let payload = SeedExamples.payload(
            #"""
            {"id": "a", "type": "audio"}, {"id": "v", "type": "video"}, {"id": "c", "type": "camera"},
            {"id": "b", "type": "barcode"}, {"id": "x", "type": "checkbox"}, {"type": "dashboard"},
            {"type": "document", "url": "u", "flavor": "pdf"}, {"type": "inlineButton", "buttonLabel": "B", "value": 1},
            {"id": "n", "type": "inputInteger"}, {"id": "m", "type": "map"}, {"type": "map"},
            {"id": "k", "type": "markupImage"}, {"type": "text", "label": "t"}
            """#)
        let kinds = payload.fields.map(\.kind)
        guard case .audio(let audio) = kinds[0], case .video(let video) = kinds[1], case .camera(let camera) = kinds[2],
            case .barcode(let barcode) = kinds[3], case .checkbox(let checkbox) = kinds[4],
            case .dashboard(let dashboard) = kinds[5], case .document(let document) = kinds[6],
            case .inlineButton(let button) = kinds[7], case .inputInteger(let number) = kinds[8],
            case .map(let inputMap) = kinds[9], case .map(let readonlyMap) = kinds[10],
            case .markupImage(let markup) = kinds[11]
        else {
            Issue.record("unexpected kinds \(kinds)")
            return
        }
        #expect(audio.maxDurationSeconds == 10 && audio.maxSizeK == 100 && audio.placeholder == "Start Recording")
        #expect(video.maxDurationSeconds == 10 && video.maxSizeK == 1000 && !video.optional)
        #expect(camera.placeholder == "Take Photo" && camera.maxSizeK == nil)
        #expect(barcode.placeholder == "Scan Barcode" && barcode.defaultValue == nil)
        #expect(checkbox.defaultValue == false && checkbox.checkboxLabel == "")
        #expect(dashboard.placeholder == "View the Dashboard" && dashboard.startTab == nil)
        #expect(document.placeholder == "View the PDF document")
        #expect(button.buttonLabelSize == 18 && button.buttonLabelStyle == .plain)
        #expect(button.buttonLabelColor == "#d0d0d0" && button.buttonBackgroundColor == "#000000")
        #expect(number.minValue == 0 && number.maxValue == 100 && number.flavor == .text && number.units == "")
        #expect(inputMap.placeholder == "View the map and select a location")
        #expect(readonlyMap.placeholder == "View the map")
        #expect(markup.placeholder == "Mark up an image")
        let label = payload.fields[12].label
        #expect(label.text == "t" && label.size == 18 && label.align == .center)
        #expect(label.color == "#000000" && label.style == .plain)
        #expect(payload.valueFields.map(\.id) == ["a", "v", "c", "b", "x", "n", "m", "k"])
    }

    @Test func seedExamplesCarryTheirTypedProperties() {
        let payload = SeedExamples.all
        let byID = Dictionary(payload.fields.compactMap { f in f.id.map { ($0, f.kind) } }) { a, _ in a }
        guard case .map(let map) = byID["myFavoriteRide"], case .droplist(let choice) = byID["complexDropList"],
            case .inputReal(let real) = byID["input4"], case .markupImage(let markup) = byID["myMarkedUpImage"]
        else {
            Issue.record("fields missing")
            return
        }
        #expect(map.location == MapPoint(longitude: -117.918974, latitude: 33.812092))
        #expect(map.markers.map(\.label) == ["Space Mountain", "Haunted Mansion"])
        #expect(map.markers.allSatisfy { $0.color == .red })
        #expect(choice.values.returnable == [.number(1), .number(2), .number(3)])
        #expect(choice.defaultValue == .number(2))
        #expect(real.flavor == .slider && real.minValue == -10 && real.maxValue == 20 && real.units == "ms")
        #expect(markup.source == "camera" && markup.placeholder == "Take a photo and mark it up")
        #expect(payload.buttonValues == [1, 2, 3, 100, 101])
    }

    @Test func unknownPropertiesAreKeptInTheFieldsJSON() {
        let payload = SeedExamples.payload(#"{"id": "s", "type": "inputString", "extra": [1, 2]}"#)
        #expect(payload.fields.first?.json["extra"] == .array([.number(1), .number(2)]))
        #expect(payload.validate().isValid)
    }

    @Test(arguments: [
        (#"{"longitude": -117.918974, "latitude": 33.812092}"#, true),
        (#"{"type": "Point", "coordinates": [-117.918974, 33.812092]}"#, true),
        (#"{"type": "Point", "coordinates": [-117.918974]}"#, false),
        (#"{"longitude": 200, "latitude": 10}"#, false),
        (#"{"longitude": 10, "latitude": -91}"#, false),
        (#"{"latitude": 10}"#, false),
        (#"[1, 2]"#, false),
    ])
    func locationsInBothFormsAreRead(json: String, valid: Bool) throws {
        let value = try JSONValue(json: Data(json.utf8))
        #expect((MapPoint(json: value) != nil) == valid)
    }

    @Test(
        arguments: [
            (JSONValue.number(0), 0), (.number(359), 359), (.string("azure"), 210), (.string("Green"), 120),
            (.number(360), nil), (.number(12.5), nil), (.string("purple"), nil), (.bool(true), nil),
        ] as [(JSONValue, Int?)])
    func markerColoursAreHuesOrNames(json: JSONValue, hue: Int?) {
        #expect(MarkerColor(json: json)?.hue == hue)
    }

    @Test(arguments: [
        ("1991-04-20", true, false), ("1991-04-20T09:30-07:00", false, true), ("2000-02-29", true, false),
        ("1900-02-29", false, false), ("1991-13-01", false, false), ("1991-4-20", false, false),
        ("1991-04-20T09:30", false, true), ("1991-04-20T09:30:15.250Z", false, true),
        ("1991-04-20T24:00Z", false, false), ("1991-04-20T09:30+0700", false, false), ("", false, false),
    ])
    func isoDatesAndDateTimesAreTold(text: String, isDate: Bool, isDateTime: Bool) {
        #expect(ISODate.isDate(text) == isDate)
        #expect(ISODate.isDateTime(text) == isDateTime)
    }

    @Test(arguments: [
        ("/a/b/c", true), ("/a", true), ("/a/b/c/d", true), ("a/b/c", false), ("/a//c", false), ("/a/b/", false),
        ("/", false), ("", false), ("/a b/c", false), ("/alerts/#", false), ("/alerts/+/x", false), ("/a+b", false),
    ])
    func topicsAreOfTheFormSlashABC(topic: String, valid: Bool) {
        #expect(ResponseTopic.isValid(topic) == valid)
    }
}
