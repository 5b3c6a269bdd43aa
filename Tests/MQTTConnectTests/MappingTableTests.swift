import Forms
import Foundation
import MQTTConnect
import MusterWire
import Testing

/// One test per row of the mapping table in Docs/mqtt.md, in its order.
@Suite struct MappingTableTests {
    private let id = Fixture.messageID.uuidString.lowercased()

    @Test func titleAndBodyBecomeMaintitleAndSubtitle() {
        let mapping = DialogMapping(
            payload: Fixture.payload(""), title: "Fire drill", body: "Meet at the gate", messageID: Fixture.messageID)
        #expect(mapping.message.maintitle == "Fire drill")
        #expect(mapping.message.subtitle == "Meet at the gate")
        #expect(mapping.isComplete)
    }

    @Test func textAndSectionLabelFieldsBecomeTheCommentJoinedByNewlinesInOrder() {
        let mapping = Fixture.mapping(
            #"{"type": "sectionLabel", "label": "Part 1"}, {"type": "text", "label": "Hello"}, {"type": "text"}"#)
        #expect(mapping.message.comment == "Part 1\nHello")
        #expect(mapping.isComplete)
    }

    @Test func theFirstImageWithAWebOrDataURLBecomesTheImageAndASecondIsUncarried() {
        let mapping = Fixture.mapping(
            #"{"type": "image", "url": "https://example.com/cat.jpg"}, {"id": "b", "type": "image", "url": "data:image/png;base64,iVBO"}"#
        )
        #expect(mapping.message.image == "https://example.com/cat.jpg")
        #expect(mapping.uncarried.map(\.index) == [1])
        #expect(mapping.uncarried.first?.reason.contains("one Image") == true)
    }

    @Test func anImageStoredAsAMusterDocumentIsUncarried() {
        let mapping = Fixture.mapping(
            #"{"type": "image", "url": "rcs/image/a20ab0c1-337d-4ace-af30-3c7b9136d0be.jpg"}"#)
        #expect(mapping.message.image == nil)
        #expect(mapping.uncarried.first?.reason.contains("not a web or data: URL") == true)
    }

    @Test func anIntegerWithARangeOfAtMost100StepsIsAStepper() throws {
        let mapping = Fixture.mapping(
            #"{"id": "n", "type": "inputInteger", "label": "Count", "minValue": -10, "maxValue": 20, "default": 3}"#)
        let field = try #require(mapping.message.inputFields?.first)
        #expect(
            field
                == DialogInputField(
                    label: "Count", key: "n", type: .stepper, defaultValue: 3, instantSender: false, required: true,
                    minimumValue: -10, maximumValue: 20))
    }

    @Test func anIntegerWithAWiderRangeIsASlider() throws {
        let mapping = Fixture.mapping(#"{"id": "n", "type": "inputInteger", "minValue": 0, "maxValue": 1000}"#)
        let field = try #require(mapping.message.inputFields?.first)
        #expect(field.type == .slider)
        #expect(field.defaultValue == 0)
        #expect((field.minimumValue, field.maximumValue) == (0, 1000))
    }

    @Test func aRealWithARangeIsASlider() throws {
        let mapping = Fixture.mapping(
            #"{"id": "r", "type": "inputReal", "minValue": 0, "maxValue": 1, "default": 0.5}"#)
        let field = try #require(mapping.message.inputFields?.first)
        #expect(field.type == .slider)
        #expect(field.defaultValue == 0.5)
    }

    @Test func aSliderFlavorWithoutARangeIsASliderOverTheSeedsDefaultRange() throws {
        let mapping = Fixture.mapping(#"{"id": "r", "type": "inputReal", "flavor": "slider"}"#)
        let field = try #require(mapping.message.inputFields?.first)
        #expect(field.type == .slider)
        #expect((field.minimumValue, field.maximumValue, field.defaultValue) == (0, 100, 0))
    }

    @Test func aNumberWithoutBothBoundsIsANumberFieldWithItsDefaultAsTextAndItsUnitsInTheLabel() throws {
        let mapping = Fixture.mapping(
            #"{"id": "t", "type": "inputReal", "label": "Wait", "units": "ms", "minValue": 5, "default": 42}"#)
        let field = try #require(mapping.message.inputFields?.first)
        #expect(field.type == .numberField)
        #expect(field.label == "Wait (ms)")
        #expect(field.defaultValue == "42")
        #expect((field.minimumValue, field.maximumValue) == (5, 100))
    }

    @Test func anInputStringIsATextField() throws {
        let mapping = Fixture.mapping(
            #"{"id": "name", "type": "inputString", "label": "Name", "default": "Kristian", "placeholder": "you"}"#)
        let field = try #require(mapping.message.inputFields?.first)
        #expect(
            field
                == DialogInputField(
                    label: "Name", key: "name", type: .textField, defaultValue: "Kristian", instantSender: false,
                    required: true))
        // Seed 000 has no several-lines property, so no field ever becomes a TextView.
        #expect(mapping.message.inputFields?.contains { $0.type == .textView } == false)
    }

    @Test func aCheckboxIsASwitchWithTrueOrFalseAsTheSeedWritesThem() throws {
        let mapping = Fixture.mapping(
            #"{"id": "a", "type": "checkbox", "label": "Glasses", "checkboxLabel": "I wear them", "default": true}, {"id": "b", "type": "checkbox"}"#
        )
        let fields = try #require(mapping.message.inputFields)
        #expect(fields.map(\.type) == [.toggle, .toggle])
        #expect(fields.map(\.defaultValue) == ["True", "False"])
        #expect(fields[0].label == "Glasses: I wear them")
        #expect(fields.map(\.required) == [false, false])
    }

    @Test func requiredIsWhetherTheResponseMustCarryAValue() {
        let mapping = Fixture.mapping(
            #"{"id": "a", "type": "inputString"}, {"id": "b", "type": "inputString", "optional": true}, {"id": "c", "type": "inputString", "optional": true, "default": "x"}, {"id": "d", "type": "inputInteger", "optional": true}"#
        )
        #expect(mapping.message.inputFields?.map(\.required) == [true, false, true, false])
    }

    @Test func footerAndInlineButtonsBecomeSingleOptionsCarryingTheirSubmitValue() throws {
        let mapping = Fixture.mapping(
            #"{"type": "inlineButton", "buttonLabel": "Stop", "value": 100}, {"type": "footerButton", "buttonLabel": "Go", "value": 7}"#
        )
        let options = try #require(mapping.message.options)
        #expect(options.map(\.label) == ["Stop", "Go"])
        #expect(options.map(\.topic) == [nil, nil])
        #expect(options[0].replyObject == ["musterMessageId": .string(id), "musterSubmitValue": 100])
        #expect(mapping.message.optionsMode == .single)
    }

    @Test func aButtonClustersButtonsBecomeOptionsAndItsLabelACommentLine() throws {
        let mapping = Fixture.mapping(
            #"{"type": "buttonCluster", "label": "Click a button", "values": [{"label": "Stop", "value": 1}, {"label": "Go", "value": 2}]}"#
        )
        let options = try #require(mapping.message.options)
        #expect(options.map(\.label) == ["Stop", "Go"])
        #expect(options.map { $0.replyObject?["musterSubmitValue"] } == [1, 2])
        #expect(mapping.message.comment == "Click a button")
    }

    @Test func aChoiceFieldWithoutButtonsBecomesOptionsCarryingItsIdAndTheValue() throws {
        let mapping = Fixture.mapping(
            #"{"id": "colour", "type": "radioButtons", "label": "Pick one", "values": [{"label": "Red", "value": 1}, {"label": "Blue", "value": "b"}]}"#
        )
        let options = try #require(mapping.message.options)
        #expect(options.map(\.label) == ["Red", "Blue"])
        #expect(options[0].replyObject == ["musterMessageId": .string(id), "musterField": "colour", "musterValue": 1])
        #expect(options[1].replyObject?["musterValue"] == "b")
        #expect(mapping.message.comment == "Pick one")
        let droplist = Fixture.mapping(#"{"id": "d", "type": "droplist", "values": ["x", "y"]}"#)
        #expect(droplist.message.options?.map { $0.replyObject?["musterValue"] } == ["x", "y"])
        #expect(mapping.isComplete && droplist.isComplete)
    }

    @Test func aSecondChoiceFieldIsUncarried() {
        let mapping = Fixture.mapping(
            #"{"id": "a", "type": "droplist", "values": ["x"]}, {"id": "b", "type": "radioButtons", "values": ["y"]}"#)
        #expect(mapping.message.options?.map(\.label) == ["x"])
        #expect(mapping.uncarried.map(\.id) == ["b"])
        #expect(mapping.uncarried.first?.reason.contains("only one choice fits") == true)
    }

    @Test func aChoiceFieldBesideButtonsIsUncarried() {
        let mapping = Fixture.mapping(
            #"{"id": "a", "type": "radioButtons", "values": ["x"]}, {"type": "footerButton", "buttonLabel": "Send", "value": 1}"#
        )
        #expect(mapping.message.options?.map(\.label) == ["Send"])
        #expect(mapping.uncarried.map(\.id) == ["a"])
        #expect(
            mapping.uncarried.first?.description.hasPrefix(#"fields[0] (id "a") radioButtons: the buttons"#) == true)
    }

    @Test func withoutButtonsOrChoicesOneSubmitOptionIsAddedAsTheAppAddsItsSubmitButton() {
        let mapping = Fixture.mapping(#"{"id": "n", "type": "inputString"}"#)
        #expect(
            mapping.message.options == [
                DialogOption(label: "Submit", replyObject: ["musterMessageId": .string(id), "musterSubmitValue": 0])
            ])
    }

    @Test(arguments: [
        (#"{"id": "d", "type": "date"}"#, "no date input"),
        (#"{"id": "d", "type": "datetime"}"#, "no date input"),
        (#"{"id": "b", "type": "barcode"}"#, "scan"),
        (#"{"id": "c", "type": "camera"}"#, "picture"),
        (#"{"id": "m", "type": "markupImage", "source": "camera"}"#, "picture"),
        (#"{"id": "a", "type": "audio"}"#, "audio"),
        (#"{"id": "v", "type": "video"}"#, "video"),
        (#"{"id": "m", "type": "map"}"#, "a map has no DialogMessage form"),
        (#"{"type": "document", "url": "https://x.org/a.pdf"}"#, "document"),
        (#"{"type": "dashboard"}"#, "dashboard"),
        (#"{"id": "here", "type": "currentLocation"}"#, "location"),
        (#"{"id": "now", "type": "currentDateTime"}"#, "time"),
    ])
    func fieldsWithNoDialogMessageFormAreUncarriedWithAReason(field: String, words: String) throws {
        let mapping = Fixture.mapping(field)
        let uncarried = try #require(mapping.uncarried.first)
        #expect(mapping.uncarried.count == 1)
        #expect(uncarried.index == 0)
        #expect(uncarried.reason.contains(words))
        #expect(mapping.message.inputFields == nil)
    }

    @Test func aFieldOfAnUnknownTypeIsIgnoredAsTheAppIgnoresIt() {
        let mapping = Fixture.mapping(#"{"id": "x", "type": "hologram"}, {"type": "text", "label": "t"}"#)
        #expect(mapping.isComplete)
        #expect(mapping.message.comment == "t")
    }

    @Test func anInputFieldWithoutAnIdIsUncarried() {
        let mapping = Fixture.mapping(
            #"{"type": "inputString"}, {"type": "checkbox"}, {"type": "droplist", "values": ["a"]}"#)
        #expect(mapping.uncarried.map(\.index) == [0, 1, 2])
        #expect(mapping.uncarried.allSatisfy { $0.reason.contains("no id") })
    }

    @Test func theSendersSettingsAreCopied() throws {
        let settings = try DialogSenderSettings(switchToTab: "QR", switchDelay: 1000, alertCode: 23, flashDuration: 0)
        let message = Fixture.mapping("", settings: settings).message
        #expect(message.switchToTab == .qr)
        #expect((message.switchDelay, message.alertCode, message.flashDuration) == (1000, 23, 0))
        #expect(Fixture.mapping("").message.switchToTab == nil)
    }

    @Test func theSendersInstantFieldsAreSentWithInstantSender() throws {
        let fields = #"{"type": "inputInteger", "id": "age"}, {"type": "inputString", "id": "name"}"#
        let mapping = Fixture.mapping(fields, settings: try DialogSenderSettings(instantSender: ["age"]))
        let inputs = try #require(mapping.message.inputFields)
        #expect(inputs.map(\.key) == ["age", "name"])
        #expect(inputs.map(\.instantSender) == [true, false])
        #expect(mapping.instantKeys == ["age"])
        #expect(Fixture.mapping(fields).instantKeys.isEmpty)
    }

    @Test func theMessageIdIsWrittenLowerCaseInEveryReplyObject() throws {
        let mapping = Fixture.mapping(
            #"{"type": "buttonCluster", "values": [{"label": "A", "value": 1}, {"label": "B", "value": 2}]}"#)
        let ids = try #require(mapping.message.options).map { $0.replyObject?["musterMessageId"] }
        #expect(ids == [.string(id), .string(id)])
        #expect(id == id.lowercased() && id.contains("5c2f9a0e"))
    }
}
