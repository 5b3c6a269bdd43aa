import Crypto
import EventLog

/// A JSON message an MQTT device published (sensor values, a QR or NFC content, a reply, a receipt …), as it
/// sent it; a camera picture in it may have been stored as a document.
public struct DeviceDataReported: DomainEvent, Hashable, Codable {
    public static let type = "DeviceDataReported"
    public static let schemaVersion: UInt16 = 1

    public var user: String
    public var deviceId: String
    /// The topic the message came on.
    public var topic: String
    /// The message's JSON text, byte for byte.
    @JSONText public var body: [UInt8]
    /// `contentHash(topic:body:)`: a redelivery of the same message has the same one.
    public var contentHash: String
    /// The document (`rcs/image/…`) a picture of the message was stored as; nil when none was.
    public var document: String?

    public init(
        user: String, deviceId: String, topic: String, body: [UInt8], contentHash: String, document: String? = nil
    ) {
        self.user = user
        self.deviceId = deviceId
        self.topic = topic
        self.body = body
        self.contentHash = contentHash
        self.document = document
    }

    /// Written by hand, field by field as `BinaryCoding` writes the synthesized conformance (pinned in
    /// `EventBytesTests`): a device's messages are the busiest event there is, and the generic codec cost a third of
    /// the writer's time for them.
    public func encode(into writer: inout ByteWriter) {
        writer.write(user)
        writer.write(deviceId)
        writer.write(topic)
        writer.write(bytes: body)
        writer.write(contentHash)
        writer.write(document ?? "")
    }

    public init(from reader: inout ByteReader) throws {
        user = try reader.readString("user")
        deviceId = try reader.readString("deviceId")
        topic = try reader.readString("topic")
        body = try reader.readBytes("body")
        contentHash = try reader.readString("contentHash")
        let document = try reader.readString("document")
        self.document = document.isEmpty ? nil : document
    }

    /// SHA-256 of the topic's UTF-8, a NUL (no topic holds one) and the body: 64 lowercase hex digits.
    public static func contentHash(topic: String, body: [UInt8]) -> String {
        var hasher = SHA256()
        hasher.update(data: Array(topic.utf8))
        hasher.update(data: [0])
        hasher.update(data: body)
        let digits = Array("0123456789abcdef".utf8)
        var hex: [UInt8] = []
        hex.reserveCapacity(64)
        for byte in hasher.finalize() {
            hex.append(digits[Int(byte >> 4)])
            hex.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: hex, as: UTF8.self)
    }
}
