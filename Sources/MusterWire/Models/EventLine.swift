/// An event of the log as `muster events --json` prints it and `GET /api/v1/events` serves it: one JSON object
/// on one line, `{"position","id","stream","version","type","schemaVersion","recordedAt","namespace","actor",
/// "causationId","correlationId","body"}`, with the members a table of events shows.
public struct EventLine: Sendable, Hashable {
    /// The line itself, byte for byte as the server wrote it.
    public var json: [UInt8]
    /// The event's position in the log.
    public var position: UInt64
    public var namespace: String
    public var stream: String
    /// Its version within its stream.
    public var version: UInt64
    public var type: String
    /// Where `recordedAt`'s text (inside its quotes) and the body stand in `json`: read from the line when asked,
    /// so a line only printed costs no copies.
    let recordedAtRange: Range<Int>
    let bodyRange: Range<Int>

    /// When it was recorded: ISO 8601 in UTC with microseconds.
    public var recordedAt: String { String(decoding: json[recordedAtRange], as: UTF8.self) }
    /// The body's JSON text, as it stands in the line.
    public var body: String { String(decoding: json[bodyRange], as: UTF8.self) }

    /// An event line from its parts; the ranges are where `recordedAt`'s text (inside its quotes) and the body
    /// stand in `json`.
    public init(
        json: [UInt8], position: UInt64, namespace: String, stream: String, version: UInt64, type: String,
        recordedAt: Range<Int>, body: Range<Int>
    ) {
        self.json = json
        self.position = position
        self.namespace = namespace
        self.stream = stream
        self.version = version
        self.type = type
        recordedAtRange = recordedAt
        bodyRange = body
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
        // A time is plain ASCII: its text is what stands between the quotes.
        guard let position = whole("position"), let version = whole("version"), let namespace = string("namespace"),
            let stream = string("stream"), let type = string("type"), let time = members["recordedAt"],
            string("recordedAt") != nil, let body = members["body"]
        else { return nil }
        let start = range.lowerBound
        self.init(
            json: Array(bytes[range]), position: position, namespace: namespace, stream: stream, version: version,
            type: type, recordedAt: (time.lowerBound + 1 - start)..<(time.upperBound - 1 - start),
            body: (body.lowerBound - start)..<(body.upperBound - start))
    }
}
