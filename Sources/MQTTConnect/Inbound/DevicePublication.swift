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
    /// A scanned QR code (`QRContent`).
    public var qrContent: ScannedContent?
    /// A read NFC tag (`NFCContent`).
    public var nfcContent: ScannedContent?
    /// A picture from the Camera tab.
    public var picture: DevicePicture?
    /// The message's JSON text, as published.
    public let body: [UInt8]
    /// Where each first-level member's value is in `body` (a member named twice: its last value, as JSON readers
    /// take it). Members nothing reads — the sensor values above all — are not built unless asked for.
    private let members: [String: Range<Int>]

    /// The first-level member, as sent (`null` included); nil when absent.
    public func value(_ member: String) -> JSONValue? {
        members[member].map { JSONValue(scanned: body, range: $0) }
    }

    /// The other sensor values (`Rotation`, `Acceleration`, `Proximity`, `Battery`, `Altitude`, `Gravity`,
    /// `Magneticfield`, `Orientation`), kept as sent.
    public var sensors: [String: JSONValue] {
        var values: [String: JSONValue] = [:]
        for member in Self.sensorMembers {
            guard let value = value(member), !value.isNull else { continue }
            values[member] = value
        }
        return values
    }

    /// First-level members none of the above reads (a reply's input values among them), sorted.
    public var otherMembers: [String] {
        members.keys.filter { !Self.knownMembers.contains($0) && !ReplyKeys.all.contains($0) }.sorted()
    }

    /// The whole message.
    public var json: [String: JSONValue] { members.mapValues { JSONValue(scanned: body, range: $0) } }

    /// Equal when they hold the same members with the same values and were read alike, however the text spelled them
    /// (spacing, member order, escapes): the message as the bridge stores it reads back as the same publication.
    public static func == (a: Self, b: Self) -> Bool {
        a.json == b.json && a.reply == b.reply && a.iPhoneID == b.iPhoneID && a.iPhoneName == b.iPhoneName
            && a.model == b.model && a.timestamp == b.timestamp && a.sessionObject == b.sessionObject
            && a.settings == b.settings && a.location == b.location && a.beacons == b.beacons
            && a.qrContent == b.qrContent && a.nfcContent == b.nfcContent && a.picture == b.picture
    }

    public func hash(into hasher: inout Hasher) { hasher.combine(json) }

    /// The message's text with these first-level members' values replaced (or added), the others as they were.
    public func body(replacing replaced: [String: JSONValue]) -> [UInt8] {
        Array(JSONValue.object(json.merging(replaced) { $1 }).jsonData())
    }

    /// The sensor members kept as JSON.
    public static let sensorMembers: Set<String> = [
        "Rotation", "Acceleration", "Proximity", "Battery", "Altitude", "Gravity", "Magneticfield", "Orientation",
    ]

    /// Every first-level member this type reads, Muster's ReplyObject members aside.
    public static let knownMembers: Set<String> = sensorMembers.union([
        "iPhoneID", "iPhoneName", "Model", "Timestamp", "SessionObject", "Settings", "GPS", "Beacons", "QRContent",
        "NFCContent",
    ]).union(DevicePicture.members)

    /// The first-level members read into the properties above: every other one is built only when a reply
    /// (`DialogReply`) may need it as an input value.
    static let readMembers: Set<String> = knownMembers.subtracting(sensorMembers)

    /// Reads one published message; never throws: odd content is refused with the member at fault.
    /// - Parameters:
    ///   - body: the message's bytes.
    ///   - sizeLimit: the largest body read, in bytes; larger ones are refused unread.
    ///   - inputKeys: the `Key`s of the last DialogMessage sent to the device, to recognise an `InstantSender`
    ///     value alone as a reply.
    public static func read(_ body: [UInt8], sizeLimit: Int, inputKeys: Set<String> = []) -> Result<
        DevicePublication, PublicationRefusal
    > {
        guard body.count <= sizeLimit else {
            return .failure(
                PublicationRefusal(member: nil, reason: "is \(body.count) bytes, over the limit of \(sizeLimit)"))
        }
        guard let document = try? JSONScanner.scan(body, allowScalar: true) else {
            return .failure(PublicationRefusal(member: nil, reason: "is not JSON"))
        }
        guard document.isObject else {
            let kind = JSONValue(scanned: body, range: body.indices).kindName
            return .failure(PublicationRefusal(member: nil, reason: "must be a JSON object, not \(kind)"))
        }
        var members: [String: Range<Int>] = [:]
        for member in document.members { members[member.key] = member.value }
        do {
            return .success(try DevicePublication(body, members, inputKeys: inputKeys))
        } catch {
            return .failure(error)
        }
    }

    /// `read(_:sizeLimit:inputKeys:)` of the bytes.
    public static func read(_ body: Data, sizeLimit: Int, inputKeys: Set<String> = []) -> Result<
        DevicePublication, PublicationRefusal
    > {
        read(Array(body), sizeLimit: sizeLimit, inputKeys: inputKeys)
    }

    private init(_ body: [UInt8], _ members: [String: Range<Int>], inputKeys: Set<String>) throws(PublicationRefusal) {
        self.body = body
        self.members = members
        let mayReply = members.keys.contains { ReplyKeys.all.contains($0) || inputKeys.contains($0) }
        var object: [String: JSONValue] = [:]
        for (key, range) in members where mayReply || Self.readMembers.contains(key) {
            object[key] = JSONValue(scanned: body, range: range)
        }
        let reader = MemberReader(object)
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
    }
}
