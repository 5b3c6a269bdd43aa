import Foundation
import MQTTConnect
import MusterWire
import Testing

@Suite struct DialogMessageCodingTests {
    @Test(arguments: [("None", "QR"), ("Single", "NFC"), ("Multiple", "Camera")])
    func theSeedsDialogMessageDecodesAndEncodesToTheSameJSON(mode: String, tab: String) throws {
        let data = SeedMessages.dialogMessage(optionsMode: mode, switchToTab: tab)
        let message = try JSONDecoder().decode(DeviceMessage.self, from: data)
        let dialog = try #require(message.dialogMessage)
        #expect(dialog.maintitle == "Sample Maintitle")
        #expect(dialog.optionsMode?.rawValue == mode)
        #expect(dialog.switchToTab?.rawValue == tab)
        #expect(dialog.inputFields?.map(\.type) == [.numberField, .textView, .toggle, .slider, .stepper, .textField])
        #expect(dialog.inputFields?[0].defaultValue == "42")
        #expect(dialog.inputFields?[3].defaultValue == 0.5)
        #expect(dialog.options?[0].topic == "optional/topic/toSend/replyTo/ifnot/set/use/default")
        #expect(dialog.options?[1].topic == nil)
        #expect((dialog.switchDelay, dialog.alertCode, dialog.flashDuration) == (1000, 23, 0))
        #expect(try JSONValue(json: message.jsonData()) == JSONValue(json: data))
    }

    @Test func theSeedsPlaceholderWordsAreNotAModeOrATab() {
        let data = Data(SeedMessages.dialogMessage.utf8)
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(DeviceMessage.self, from: data) }
    }

    @Test func absentMembersAreLeftOutNotWrittenAsNull() throws {
        let message = DeviceMessage(dialogMessage: DialogMessage(maintitle: "Hi"))
        #expect(String(decoding: message.jsonData(), as: UTF8.self) == #"{"DialogMessage":{"Maintitle":"Hi"}}"#)
        let field = DialogInputField(label: "L", key: "k", type: .stepper, minimumValue: 1, maximumValue: 5)
        #expect(
            Fixture.json(field) == ["Label": "L", "Key": "k", "Type": "Stepper", "MinimumValue": 1, "MaximumValue": 5])
        let text = String(decoding: try JSONEncoder().encode(field), as: UTF8.self)
        #expect(text.contains(#""MinimumValue":1"#) && !text.contains("1.0"))
    }

    @Test func aSessionObjectRidesOnTheFirstLevelBesideTheDialog() throws {
        let message = DeviceMessage(
            dialogMessage: DialogMessage(subtitle: "S"), sessionObject: ["sheet": "A", "row": 3])
        let json = try JSONValue(json: message.jsonData())
        #expect(json == ["DialogMessage": ["Subtitle": "S"], "SessionObject": ["sheet": "A", "row": 3]])
    }

    @Test func aSettingsMessageIsTheReceiptsSettingsMember() throws {
        let settings = DeviceSettings(
            subscribeTopic: ["a/b"], onInterval: true, intervalCycle: 1000, thresholdValue: 100)
        let json = try JSONValue(json: DeviceMessage(settings: settings).jsonData())
        #expect(
            json == [
                "Settings": [
                    "SubscribeTopic": ["a/b"], "OnInterval": true, "IntervalCycle": 1000, "ThresholdValue": 100,
                ]
            ])
        #expect(String(decoding: DeviceMessage(settings: settings).jsonData(), as: UTF8.self).contains("a/b"))
    }
}
