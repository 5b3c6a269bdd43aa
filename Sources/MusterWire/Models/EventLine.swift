/// An event of the log as `muster events --json` prints it and `GET /api/v1/events` serves it: one JSON object
/// on one line, `{"position","id","stream","version","type","schemaVersion","recordedAt","namespace","actor",
/// "causationId","correlationId","body"}`, with the members a table of events shows.
public struct EventLine: Sendable, Hashable {
    /// The line itself, byte for byte as the server wrote it.
    public var json: [UInt8]
    /// The event's position in the log.
    public var position: UInt64
    /// When it was recorded: ISO 8601 in UTC with microseconds.
    public var recordedAt: String
    public var namespace: String
    public var stream: String
    /// Its version within its stream.
    public var version: UInt64
    public var type: String
    /// The body's JSON text, as it stands in the line.
    public var body: String

    /// An event line from its parts; `json` must be the line they were taken from.
    public init(
        json: [UInt8], position: UInt64, recordedAt: String, namespace: String, stream: String, version: UInt64,
        type: String, body: String
    ) {
        self.json = json
        self.position = position
        self.recordedAt = recordedAt
        self.namespace = namespace
        self.stream = stream
        self.version = version
        self.type = type
        self.body = body
    }

    /// Reads `bytes[range]` as an event line; nil when it is not JSON or lacks a member of the shape.
    public init?(_ bytes: [UInt8], range: Range<Int>? = nil) {
        let range = range ?? bytes.indices
        guard let document = try? JSONScanner.scan(bytes, range: range), document.isObject else { return nil }
        var members: [String: Range<Int>] = [:]
        for member in document.members where members[member.key] == nil { members[member.key] = member.value }
        func string(_ key: String) -> String? {
            members[key].flatMap { JSONValue(scanned: bytes, range: $0).stringValue }
        }
        func whole(_ key: String) -> UInt64? {
            members[key].flatMap { UInt64(String(decoding: bytes[$0], as: UTF8.self)) }
        }
        guard let position = whole("position"), let version = whole("version"), let recordedAt = string("recordedAt"),
            let namespace = string("namespace"), let stream = string("stream"), let type = string("type"),
            let body = members["body"]
        else { return nil }
        self.init(
            json: Array(bytes[range]), position: position, recordedAt: recordedAt, namespace: namespace,
            stream: stream, version: version, type: type, body: String(decoding: bytes[body], as: UTF8.self))
    }
}
