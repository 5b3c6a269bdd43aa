import Foundation
import MusterWire

/// One JSON message a device published, read into what it holds: who sent it, a reply to a DialogMessage, a
/// settings receipt, sensor values, scanned content, a picture. A message may hold several at once.
public struct DevicePublication: Sendable, Hashable {
    /// The device's id (`iPhoneID`).
    public var iPhoneID: String?
    /// The device's name (`iPhoneName`).
    public var iPhoneName: String?
    /// The device's model (`Model`, e.g. "iPhone8,4").
    public var model: String?
    /// The device's `Timestamp`, as it wrote it.
    public var timestamp: Double?
    /// The session object the device attaches to everything it publishes.
    public var sessionObject: JSONValue?
    /// A reply to a DialogMessage.
    public var reply: DialogReply?
    /// The settings of a receipt, sent after a settings message.
    public var settings: DeviceSettings?
    /// The `GPS` position.
    public var location: DeviceLocation?
    /// The `Beacons` in range.
    public var beacons: [BeaconReading]?
    /// The other sensor values (`Rotation`, `Acceleration`, `Proximity`, `Battery`, `Altitude`, `Gravity`,
    /// `Magneticfield`, `Orientation`), kept as sent.
    public var sensors: [String: JSONValue]
    /// A scanned QR code (`QRContent`).
    public var qrContent: ScannedContent?
    /// A read NFC tag (`NFCContent`).
    public var nfcContent: ScannedContent?
    /// A picture from the Camera tab.
    public var picture: DevicePicture?
    /// First-level members none of the above reads (a reply's input values among them), sorted.
    public var otherMembers: [String]
    /// The whole message.
    public var json: [String: JSONValue]

    /// The sensor members kept as JSON.
    public static let sensorMembers: Set<String> = [
        "Rotation", "Acceleration", "Proximity", "Battery", "Altitude", "Gravity", "Magneticfield", "Orientation",
    ]

    /// Every first-level member this type reads, Muster's ReplyObject members aside.
    public static let knownMembers: Set<String> = sensorMembers.union([
        "iPhoneID", "iPhoneName", "Model", "Timestamp", "SessionObject", "Settings", "GPS", "Beacons", "QRContent",
        "NFCContent",
    ]).union(DevicePicture.members)

    /// Reads one published message; never throws: odd content is refused with the member at fault.
    /// - Parameters:
    ///   - body: the message's bytes.
    ///   - sizeLimit: the largest body read, in bytes; larger ones are refused unread.
    ///   - inputKeys: the `Key`s of the last DialogMessage sent to the device, to recognise an `InstantSender`
    ///     value alone as a reply.
    public static func read(_ body: Data, sizeLimit: Int, inputKeys: Set<String> = []) -> Result<
        DevicePublication, PublicationRefusal
    > {
        guard body.count <= sizeLimit else {
            return .failure(
                PublicationRefusal(member: nil, reason: "is \(body.count) bytes, over the limit of \(sizeLimit)"))
        }
        guard let json = try? JSONValue(json: body) else {
            return .failure(PublicationRefusal(member: nil, reason: "is not JSON"))
        }
        guard let object = json.objectValue else {
            return .failure(PublicationRefusal(member: nil, reason: "must be a JSON object, not \(json.kindName)"))
        }
        do {
            return .success(try DevicePublication(object, inputKeys: inputKeys))
        } catch {
            return .failure(error)
        }
    }

    private init(_ object: [String: JSONValue], inputKeys: Set<String>) throws(PublicationRefusal) {
        let reader = MemberReader(object)
        json = object
        iPhoneID = try reader.string("iPhoneID")
        iPhoneName = try reader.string("iPhoneName")
        model = try reader.string("Model")
        timestamp = try reader.number("Timestamp")
        sessionObject = reader.value("SessionObject")
        settings = try reader.object("Settings").map { settings throws(PublicationRefusal) in
            try DeviceSettings(receipt: settings)
        }
        location = try reader.object("GPS").map { gps throws(PublicationRefusal) in
            try DeviceLocation(reading: gps)
        }
        beacons = try reader.value("Beacons").map { value throws(PublicationRefusal) in
            try BeaconReading.readAll(value)
        }
        sensors = object.filter { Self.sensorMembers.contains($0.key) && !$0.value.isNull }
        qrContent = try reader.value("QRContent").map { value throws(PublicationRefusal) in
            try ScannedContent.read(value, member: "QRContent")
        }
        nfcContent = try reader.value("NFCContent").map { value throws(PublicationRefusal) in
            try ScannedContent.read(value, member: "NFCContent")
        }
        picture = nil
        for member in DevicePicture.members {
            guard picture == nil, let value = reader.value(member) else { continue }
            picture = try DevicePicture.read(value, member: member)
        }
        reply = try DialogReply.read(reader, inputKeys: inputKeys)
        otherMembers = object.keys.filter { !Self.knownMembers.contains($0) && !ReplyKeys.all.contains($0) }.sorted()
    }
}
