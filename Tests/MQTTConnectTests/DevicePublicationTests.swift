import Foundation
import MQTTConnect
import MusterWire
import Testing

@Suite struct DevicePublicationTests {
    @Test func theSeedsReceiptIsReadAsSettings() throws {
        let publication = try Fixture.read(SeedMessages.receipt).get()
        #expect(publication.iPhoneID == "9A093D8F-D1A2-4E2B-8E20-04DA0897578A")
        #expect(
            publication.settings
                == DeviceSettings(
                    subscribeTopic: ["hello/world", "hello/mars"], publishTopic: "cedalo/iPhone", onIncoming: false,
                    onInterval: false, intervalOnChange: false, onThreshold: false, intervalCycle: 500,
                    thresholdValue: 100))
        #expect(publication.reply == nil)
    }

    @Test func theSeedsQRPublicationIsReadWithItsSensorValues() throws {
        let publication = try Fixture.read(SeedMessages.qrPublication).get()
        #expect(publication.iPhoneName == "Cedalo iPhone")
        #expect(publication.model == "iPhone8,4")
        #expect(publication.qrContent == .text("cedalo.com"))
        #expect(publication.location == DeviceLocation(latitude: 47.9942, longitude: 7.8397, altitude: 269.8218))
        #expect(
            Set(publication.sensors.keys)
                == ["Rotation", "Acceleration", "Proximity", "Magneticfield", "Orientation", "Battery", "Gravity"])
        #expect(publication.sensors["Battery"] == 50)
        #expect(publication.otherMembers.isEmpty)
    }

    @Test func theSeedsSensorTemplateIsNotJSONAsWritten() {
        #expect(
            Fixture.read(SeedMessages.sensorTemplate)
                == .failure(PublicationRefusal(member: nil, reason: "is not JSON")))
    }

    @Test func beaconsAreReadAsAnObjectOfObjectsOrAnArrayInEitherSpelling() throws {
        let uuid = "F2A74FC4-7625-44DB-9B08-CB7E130B2029"
        let object = try DevicePublication.read(
            SeedMessages.sensorValues(
                beacons:
                    #"{"Beacon1": {"uuid": "\#(uuid)", "major": 1, "minor": 2, "rssi": -60, "proximity": 2, "accuracy": 1.5}, "Beacon2": {"ProximityUUID": "\#(uuid)", "Major": 3, "Minor": 4, "RSSI": 0, "Proximity": "far"}}"#
            ), sizeLimit: 1 << 20
        ).get()
        let expected = [
            BeaconReading(
                name: "Beacon1", uuid: UUID(uuidString: uuid)!, major: 1, minor: 2, rssi: -60, proximity: .near,
                accuracy: 1.5),
            BeaconReading(name: "Beacon2", uuid: UUID(uuidString: uuid)!, major: 3, minor: 4, rssi: 0, proximity: .far),
        ]
        #expect(object.beacons == expected)
        #expect(object.timestamp == 123456)
        #expect(object.location == DeviceLocation(latitude: 0, longitude: 0, altitude: 0))
        let array = try Fixture.read(#"{"Beacons": [{"uuid": "\#(uuid)", "major": 1, "minor": 2}]}"#).get()
        #expect(array.beacons?.map(\.major) == [1])
        #expect(array.beacons?.first?.name == nil)
        // iOS's RSSI 0 is "no reading", and none given is the same: a faint signal for the rules, never 0 dBm.
        #expect(object.beacons?.map(\.signalStrength) == [-60, -100])
        #expect(array.beacons?.first?.signalStrength == -100)
    }

    @Test(arguments: [
        (#"{"GPS": {"Latitude": 123, "Longitude": 7}}"#, "GPS.Latitude"),
        (#"{"GPS": {"Latitude": 47}}"#, "GPS.Longitude"),
        (#"{"GPS": "here"}"#, "GPS"),
        (#"{"iPhoneID": 7}"#, "iPhoneID"),
        (#"{"Timestamp": "noon"}"#, "Timestamp"),
        (#"{"Settings": {"IntervalCycle": "fast"}}"#, "Settings.IntervalCycle"),
        (#"{"Settings": {"SubscribeTopic": "a/b"}}"#, "Settings.SubscribeTopic"),
        (#"{"Beacons": [{"uuid": "nope", "major": 1, "minor": 2}]}"#, "Beacons[0].uuid"),
        (
            #"{"Beacons": {"B": {"uuid": "F2A74FC4-7625-44DB-9B08-CB7E130B2029", "major": 70000, "minor": 2}}}"#,
            "Beacons.B.major"
        ),
        (#"{"Beacons": [{"uuid": "F2A74FC4-7625-44DB-9B08-CB7E130B2029", "major": 1}]}"#, "Beacons[0].minor"),
        (#"{"Beacons": 3}"#, "Beacons"),
        (#"{"musterMessageId": "not-a-uuid"}"#, "musterMessageId"),
        (#"{"musterValue": 1}"#, "musterValue"),
        (#"{"musterSubmitValue": "1"}"#, "musterSubmitValue"),
        (#"{"CameraContent": 5}"#, "CameraContent"),
    ])
    func aMemberOfTheWrongTypeIsRefusedByName(body: String, member: String) {
        guard case .failure(let refusal) = Fixture.read(body) else {
            Issue.record("\(body) was accepted")
            return
        }
        #expect(refusal.member == member)
        #expect(refusal.description.hasPrefix("\(member): "))
    }

    @Test func aBodyThatIsNotAnObjectOrOverTheLimitIsRefused() {
        #expect(
            Fixture.read("[1, 2]")
                == .failure(PublicationRefusal(member: nil, reason: "must be a JSON object, not an array")))
        #expect(Fixture.read("{\"a\": ") == .failure(PublicationRefusal(member: nil, reason: "is not JSON")))
        let big = Data(repeating: 0x20, count: 10 << 20 + 1)
        #expect(
            DevicePublication.read(big, sizeLimit: 10 << 20)
                == .failure(PublicationRefusal(member: nil, reason: "is 10485761 bytes, over the limit of 10485760")))
    }

    @Test func scannedJSONIsKeptAsJSONAndTextAsText() throws {
        let json = try Fixture.read(#"{"QRContent": "{\"room\": 12}", "NFCContent": "[1, 2]"}"#).get()
        #expect(json.qrContent == .json(["room": 12]))
        #expect(json.nfcContent == .json([1, 2]))
        let object = try Fixture.read(#"{"QRContent": {"room": 12}, "NFCContent": "42"}"#).get()
        #expect(object.qrContent == .json(["room": 12]))
        #expect(object.nfcContent == .text("42"))
        #expect(object.nfcContent?.json == "42")
    }

    @Test func unknownMembersAreListedAndTheSessionObjectKeptAsSent() throws {
        let publication = try Fixture.read(#"{"iPhoneID": "X", "SessionObject": {"s": [1]}, "Humidity": 40}"#).get()
        #expect(publication.sessionObject == ["s": [1]])
        #expect(publication.otherMembers == ["Humidity"])
        #expect(publication.reply == nil)
    }

    @Test func aMemberNamedTwiceHasItsLastValueAsJSONReadersTakeIt() throws {
        let publication = try Fixture.read(#"{"Battery": 10, "iPhoneID": "A", "Battery": 20, "iPhoneID": "B"}"#).get()
        #expect(publication.sensors == ["Battery": 20])
        #expect(publication.iPhoneID == "B")
        #expect(publication.json == ["Battery": 20, "iPhoneID": "B"])
    }

    @Test func membersAreKeptAsSentAndReplacedOneByOne() throws {
        let body = #"{"Proximity": null, "Gravity": {"GravityX": 0.5}, "QRContent": "{\"a\": 1}"}"#
        let publication = try Fixture.read(body).get()
        #expect(publication.value("Proximity") == .null)  // as sent; `sensors` leaves nulls out
        #expect(publication.sensors == ["Gravity": ["GravityX": 0.5]])
        #expect(publication.value("Battery") == nil)
        #expect(publication.body == Array(body.utf8))
        let replaced = try JSONValue(json: publication.body(replacing: ["QRContent": ["a": 1]]))
        #expect(replaced == ["Proximity": .null, "Gravity": ["GravityX": 0.5], "QRContent": ["a": 1]])
    }

    @Test func theSameMembersSpelledOtherwiseAreTheSamePublication() throws {
        let spaced = try Fixture.read(#"{ "Battery" : 5,  "iPhoneID":"A", "Rotation": {"x": 1.50} }"#).get()
        let compact = try Fixture.read(#"{"Rotation":{"x":1.5},"iPhoneID":"A","Battery":5}"#).get()
        #expect(spaced == compact && spaced.hashValue == compact.hashValue)
        #expect(spaced != (try Fixture.read(#"{"Rotation":{"x":1.5},"iPhoneID":"B","Battery":5}"#).get()))
        #expect(
            Fixture.read(String(decoding: JSONValue.object(spaced.json).jsonData(), as: UTF8.self)) == .success(spaced))
    }
}
