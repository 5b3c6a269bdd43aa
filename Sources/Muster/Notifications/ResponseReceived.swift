import EventLog
import Forms
import Foundation
import MusterWire

/// A person answered a message: the response object published on the payload's `responseTopic`.
public struct ResponseReceived: DomainEvent, Hashable {
    public static let type = "ResponseReceived"
    public static let schemaVersion: UInt16 = 1

    public var messageId: UUID
    public var user: String
    public var deviceId: String
    public var deviceName: String
    public var submitValue: Int
    /// The response object's JSON text, as `ResponseObject.encoded()` writes it.
    @JSONText public var response: [UInt8]
    public var responseTopic: String
    /// The request template answered (ArsRCSRequest) when the user started it unasked; nil for an
    /// answer to a sent message. Written after the other fields only when present, so answers to
    /// messages keep the bytes schema 1 always had.
    public var request: String?
}

/// Schema 1's layout, written by hand: a field written only when present does not fit `BinaryCoding`.
extension ResponseReceived {
    public func encode(into w: inout ByteWriter) {
        w.write(messageId)
        w.write(user)
        w.write(deviceId)
        w.write(deviceName)
        w.write(signed: Int64(submitValue))
        w.write(bytes: response)
        w.write(responseTopic)
        if let request { w.write(request) }
    }

    public init(from r: inout ByteReader) throws {
        messageId = try r.readUUID("message id")
        user = try r.readString("user")
        deviceId = try r.readString("device id")
        deviceName = try r.readString("device name")
        submitValue = Int(truncatingIfNeeded: try r.readSigned("submit value"))
        response = try r.readBytes("response")
        responseTopic = try r.readString("response topic")
        request = r.remaining > 0 ? try r.readString("request") : nil
    }
}
