import MQTTConnect
import MusterWire
import Testing

@Suite struct SettingsTests {
    @Test func operatorArgumentsAreTypedAsTheSeedsSettings() throws {
        let settings = try DeviceSettings(arguments: [
            "OnInterval=true", "IntervalCycle=1000", "SubscribeTopic=a/b,c/#", "publishtopic=cedalo/iPhone",
            "ThresholdValue=2.5", "OnIncoming=FALSE",
        ])
        #expect(
            settings
                == DeviceSettings(
                    subscribeTopic: ["a/b", "c/#"], publishTopic: "cedalo/iPhone", onIncoming: false, onInterval: true,
                    intervalCycle: 1000, thresholdValue: 2.5))
    }

    @Test(arguments: [
        ("OnInterval=yes", "OnInterval must be true or false, not \"yes\""),
        ("IntervalCycle=fast", "IntervalCycle must be a whole number of 1 or more, not \"fast\""),
        ("IntervalCycle=0", "IntervalCycle must be a whole number of 1 or more"),
        ("ThresholdValue=lots", "ThresholdValue must be a number"),
        ("SubscribeTopic=a/b,,c", "SubscribeTopic must be a comma-separated list of topics"),
        ("SubscribeTopic=a/#/b", "SubscribeTopic must be a comma-separated list"),
        ("PublishTopic=a/+", "PublishTopic must be a topic like cedalo/iPhone (no + or # wildcards)"),
        ("OnInterval", "expected KEY=VALUE"),
    ])
    func aBadValueIsRefusedNamingTheKeyAndWhatWasExpected(argument: String, message: String) {
        #expect {
            try DeviceSettings(arguments: [argument])
        } throws: { error in
            (error as? SettingsArgumentError)?.message.contains(message) == true
                && (error as? SettingsArgumentError)?.argument == argument
        }
    }

    @Test func anUnknownKeyIsRefusedWithTheKnownOnes() {
        #expect {
            try DeviceSettings(arguments: ["Brightness=3"])
        } throws: { error in
            let text = String(describing: error)
            return text.contains("\"Brightness\" is not a setting")
                && DeviceSettings.keys.allSatisfy { text.contains($0) }
        }
    }

    @Test func aRepeatedOrMissingSettingIsRefused() {
        #expect(throws: SettingsArgumentError.self) {
            try DeviceSettings(arguments: ["OnInterval=true", "oninterval=false"])
        }
        #expect(throws: SettingsArgumentError.self) { try DeviceSettings(arguments: []) }
    }

    @Test func senderSettingsAreValidated() throws {
        #expect(throws: DialogSettingsError.self) { try DialogSenderSettings(switchToTab: "Map") }
        #expect(throws: DialogSettingsError.self) { try DialogSenderSettings(switchDelay: -1) }
        #expect(throws: DialogSettingsError.self) { try DialogSenderSettings(flashDuration: -1) }
        let fromJSON = try DialogSenderSettings(json: ["SwitchToTab": "Camera", "AlertCode": 23])
        #expect(fromJSON.switchToTab == .camera && fromJSON.alertCode == 23)
        #expect {
            try DialogSenderSettings(json: ["AlertCode": 2.5])
        } throws: { String(describing: $0) == "AlertCode: must be an integer, not 2.5" }
        #expect {
            try DialogSenderSettings(json: ["Sound": 1])
        } throws: { ($0 as? DialogSettingsError)?.setting == "Sound" }
    }

    @Test func instantSenderFieldsAreNamedByIdEachOnce() throws {
        #expect(try DialogSenderSettings(json: ["InstantSender": ["age", "name"]]).instantSender == ["age", "name"])
        #expect(try DialogSenderSettings(json: ["InstantSender": .null]).instantSender == [])
        #expect(DialogSenderSettings.none.instantSender == [])
        #expect {
            try DialogSenderSettings(json: ["InstantSender": "age"])
        } throws: { String(describing: $0) == #"InstantSender: must be an array of input field ids, not "age""# }
        #expect {
            try DialogSenderSettings(json: ["InstantSender": ["age", 3]])
        } throws: { ($0 as? DialogSettingsError)?.setting == "InstantSender" }
        #expect {
            try DialogSenderSettings(instantSender: ["age", "age"])
        } throws: { String(describing: $0) == #"InstantSender: names "age" twice"# }
        #expect {
            try DialogSenderSettings(instantSender: [""])
        } throws: { ($0 as? DialogSettingsError)?.message.contains("by id") == true }
    }
}
