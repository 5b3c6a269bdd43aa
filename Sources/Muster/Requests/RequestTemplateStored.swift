import EventLog
import Foundation

/// A form a user can fill in and send without having been asked (the seed's ArsRCSRequest, listed
/// in the app's "Start" tab); storing the same name again replaces it.
public struct RequestTemplateStored: DomainEvent, Hashable {
    public static let type = "RequestTemplateStored"
    public static let schemaVersion: UInt16 = 1

    public var name: String
    public var title: String
    /// The subtitle shown under the title.
    public var body: String
    public var responseTopic: String
    /// The payload's JSON text, its `responseTopic` set to `responseTopic`.
    public var payload: [UInt8]

    public init(name: String, title: String, body: String, responseTopic: String, payload: [UInt8]) {
        self.name = name
        self.title = title
        self.body = body
        self.responseTopic = responseTopic
        self.payload = payload
    }

    public func encode(into w: inout ByteWriter) {
        w.write(name)
        w.write(title)
        w.write(body)
        w.write(responseTopic)
        w.write(bytes: payload)
    }

    public init(from r: inout ByteReader) throws {
        name = try r.readString("request name")
        title = try r.readString("title")
        body = try r.readString("body")
        responseTopic = try r.readString("response topic")
        payload = try r.readBytes("payload")
    }

    /// The audit and listing shape embeds the payload as JSON.
    private enum CodingKeys: String, CodingKey { case name, title, body, responseTopic, payload }
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(name, forKey: .name)
        try c.encode(title, forKey: .title)
        try c.encode(body, forKey: .body)
        try c.encode(responseTopic, forKey: .responseTopic)
        try c.encodeJSONText(payload, forKey: .payload)
    }
}
