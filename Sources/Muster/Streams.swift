import Foundation

/// The streams of a namespace's log, named in one place. An event's stream says what it is about; a stream's
/// version is what an append's expected version, and a preparation's re-check, compare.
enum Streams {
    /// A user's account, created once (the stream must not exist yet).
    static func user(_ name: String) -> String { "user/\(name)" }
    static func group(_ name: String) -> String { "group/\(name)" }
    /// A user's push targets: registered, unregistered.
    static func devices(of user: String) -> String { "devices/\(user)" }
    /// What one device reported and what was decided for it: fixes and sightings, transitions, rule and geotrigger
    /// decisions, area notifications, an MQTT device's data and refused replies.
    static func device(_ id: String) -> String { "device/\(id)" }
    static func document(_ name: String) -> String { "document/\(name)" }
    /// One send: its `PayloadSent`, once (the stream must not exist yet).
    static func send(_ messageId: UUID) -> String { "send/\(messageId.uuidString)" }
    /// One message's answer or withdrawal, once.
    static func message(_ messageId: UUID) -> String { "message/\(messageId.uuidString)" }
    /// The push deliveries of one message.
    static func push(_ messageId: UUID) -> String { "push/\(messageId.uuidString)" }
    static func request(_ name: String) -> String { "request/\(name)" }
    static func payload(_ name: String) -> String { "payload/\(name)" }
    static func locationRequests(of user: String) -> String { "location-requests/\(user)" }
    /// What was published on a topic (`/a/b/c`: the name is `topic/a/b/c`).
    static func topic(_ topic: String) -> String { "topic\(topic)" }
    static let settings = "settings"
    static let areas = "areas"
    static let geotriggers = "geotriggers"
}
