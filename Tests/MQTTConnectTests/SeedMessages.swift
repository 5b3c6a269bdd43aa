import Forms
import Foundation
import MQTTConnect
import MusterWire

/// The JSON examples of seed 001, copied verbatim; they are the specification of the MQTT Connect messages.
enum SeedMessages {
    /// The DialogMessage example. Its `OptionsMode` and `SwitchToTab` list the allowed words ("None/Single/
    /// Multiple", "QR/NFC/Camera") instead of holding one; `dialogMessage(optionsMode:switchToTab:)` picks one.
    static let dialogMessage = #"""
        {
        "DialogMessage": {
        "Maintitle": "Sample Maintitle",
        "Subtitle": "Sample Subtitle",
        "Image": "data:image/jpeg;base64…",
        "Comment": "This is a sample comment",
        "InputFields": [
        {
        "Label": "Alter",
        "Key": "Age",
        "Type": "NumberField",
        "DefaultValue": "42",
        "InstantSender":true,
        "Required":false
        },
        {
        "Label": "Text",
        "Key": "Text",
        "Type": "TextView",
        "DefaultValue": "Don't panic!",
        "InstantSender":false,
        "Required":false
        },
        {
        "Label": "Brille",
        "Key": "Glasses",
        "Type": "Switch",
        "DefaultValue": "False",
        "InstantSender":false,
        "Required":false
        },
        {
        "Label": "Liter",
        "Key": "Liter",
        "Type": "Slider",
        "MinimumValue":0,
        "MaximumValue":1,
        "DefaultValue": 0.5,
        "InstantSender":false,
        "Required":false
        },
        {
        "Label": "Monitore",
        "Key": "Displays",
        "Type": "Stepper",
        "MinimumValue":1,
        "MaximumValue":5,
        "DefaultValue":2,
        "InstantSender":false,
        "Required":false
        },
        {
        "Label": "Name",
        "Key": "Name",
        "Type": "TextField",
        "DefaultValue": "Kristian",
        "InstantSender":false,
        "Required":true
        }
        ],
        "Options": [
        {
        "Label": "SampleOption1",
        "Topic": "optional/topic/toSend/replyTo/ifnot/set/use/default",
        "ReplyObject": {
        "TestAttr1": {
        "Testattr11": "",
        "Testattr12": ""
        },
        "TestAttr2": {}
        }
        },
        {
        "Label": "SampleOption2",
        "ReplyObject": {
        "TestAttr3": {
        "Testattr31": "",
        "Testattr32": ""
        },
        "TestAttr4": {}
        }
        },
        {
        "Label": "SampleOption3",
        "ReplyObject": {
        "TestAttr5": {},
        "TestAttr6": {
        "TestAttr7": ""
        }
        }
        }
        ],
        "OptionsMode": "None/Single/Multiple",
        "SwitchToTab": "QR/NFC/Camera",
        "SwitchDelay": 1000,
        "AlertCode": 23,
        "FlashDuration": 0
        }
        }
        """#

    /// The DialogMessage example with one of the listed words in `OptionsMode` and `SwitchToTab`.
    static func dialogMessage(optionsMode: String, switchToTab: String) -> Data {
        Data(
            dialogMessage.replacingOccurrences(of: "None/Single/Multiple", with: optionsMode)
                .replacingOccurrences(of: "QR/NFC/Camera", with: switchToTab).utf8)
    }

    /// The settings receipt example.
    static let receipt = #"""
        {
        "iPhoneID": "9A093D8F-D1A2-4E2B-8E20-04DA0897578A",
        "Settings": {
        "SubscribeTopic": [
        "hello/world",
        "hello/mars"
        ],
        "PublishTopic": "cedalo/iPhone",
        "OnIncoming": false,
        "OnInterval": false,
        "IntervalOnChange": false,
        "OnThreshold": false,
        "IntervalCycle": 500,
        "ThresholdValue": 100
        }
        }
        """#

    /// The sensor values template; not valid JSON as written (`"Beacons": [ "Beacon1": { ... } ]`).
    static let sensorTemplate = #"""
        {
        "Timestamp": 123456,
        "Proximity": false,
        "Battery": -100,
        "Acceleration": {
        "LinearX": 0.0,
        "LinearY": 0.0,
        "LinearZ": 0.0
        },
        "Beacons": [
        "Beacon1": {
        ...
        ...
        ...
        },
        "Beacon2": {
        ...
        ...
        ...
        }
        ],
        "Altitude": {
        "Pressure": 0.0,
        "Relative": 0.0
        },
        "GPS": {
        "Longitude": 0.0,
        "Latitude": 0.0,
        "Altitude": 0.0
        },
        "Gravity": {
        "GravityX": 0.0,
        "GravityY": 0.0,
        "GravityZ": 0.0
        },
        "Magneticfield": {
        "AxisX": 0.0,
        "AxisY": 0.0,
        "AxisZ": 0.0
        },
        "Orientation": {
        "Roll": 0.0,
        "Yaw": 0.0,
        "Pitch": 0.0
        },
        "Rotation": {
        "RotationRoll": 0.0,
        "RotationYaw": 0.0,
        "RotationPitch": 0.0
        }
        }
        """#

    /// The sensor template with its `Beacons` written as Muster reads them: an object of beacon objects.
    static func sensorValues(beacons: String) -> Data {
        let start = sensorTemplate.range(of: "\"Beacons\": [")!
        let end = sensorTemplate.range(of: "],\n\"Altitude\"")!
        return Data(
            (sensorTemplate[..<start.lowerBound] + "\"Beacons\": \(beacons),\n\"Altitude\""
                + sensorTemplate[end.upperBound...]).utf8)
    }

    /// The QR-code publication example.
    static let qrPublication = #"""
        {
        "iPhoneID": "9A093D8F-D1A2-4E2B-8E20-04DA0897578A",
        "iPhoneName": "Cedalo iPhone",
        "Model": "iPhone8,4",
        "QRContent": "cedalo.com",
        "Rotation": {
        "RotationRoll": 3,
        "RotationPitch": -2,
        "RotationYaw": 2
        },
        "Acceleration": {
        "LinearX": 0,
        "LinearY": 0,
        "LinearZ": -1
        },
        "Proximity": false,
        "GPS": {
        "Altitude": 269.8218,
        "Latitude": 47.9942,
        "Longitude": 7.8397
        },
        "Magneticfield": {
        "AxisX": 0,
        "AxisY": 0,
        "AxisZ": 0
        },
        "Orientation": {
        "Yaw": 0,
        "Pitch": 53,
        "Roll": -4
        },
        "Battery": 50,
        "Gravity": {
        "GravityX": -2,
        "GravityY": -45,
        "GravityZ": -34
        }
        }
        """#
}

/// Payloads and JSON helpers for the tests.
enum Fixture {
    static let messageID = UUID(uuidString: "5C2F9A0E-8D1B-4E77-9A3C-1F0B2D4E6A80")!

    /// A payload with the given fields, written as JSON.
    static func payload(_ fields: String, state: String? = nil) -> Payload {
        let state = state.map { #", "state": \#($0)"# } ?? ""
        return Payload.parse(Data(#"{"responseTopic": "/site/answers", "fields": [\#(fields)]\#(state)}"#.utf8))
    }

    /// The mapping of a payload with the given fields.
    static func mapping(_ fields: String, settings: DialogSenderSettings = .none) -> DialogMapping {
        DialogMapping(payload: payload(fields), title: "Title", body: "Body", messageID: messageID, settings: settings)
    }

    /// Reads a publication, with the 10 MB limit the bridge passes.
    static func read(_ text: String, inputKeys: Set<String> = []) -> Result<DevicePublication, PublicationRefusal> {
        DevicePublication.read(Data(text.utf8), sizeLimit: 10 << 20, inputKeys: inputKeys)
    }

    /// The JSON value of an encodable, to compare documents regardless of key order and spacing.
    static func json(_ value: some Encodable) -> JSONValue? {
        guard let data = try? JSONEncoder().encode(value) else { return nil }
        return try? JSONValue(json: data)
    }
}
