/// Parses a `text/event-stream` as the HTML standard's "event stream interpretation" does, from bytes that
/// may arrive split anywhere: inside a line, between CR and LF, inside a UTF-8 character.
///
/// Lines end in CRLF, LF or CR. A line starting with `:` is a comment. `field: value` loses one space after
/// the colon; a line without a colon is a field with an empty value. `data` lines join with LF; `event` names
/// the type; `id` sets the last event id (kept across events; ignored when it contains NUL); `retry` sets the
/// reconnection time (ASCII digits only). An event is dispatched only on a blank line and only when it has
/// data; what is pending when the stream ends is discarded.
public struct ServerSentEventParser: Sendable {
    /// The last event id the stream set; sent back as `Last-Event-ID` when reconnecting.
    public private(set) var lastEventId: String = ""
    /// The reconnection time the stream asked for with `retry`; nil until it did.
    public private(set) var reconnectionTime: Duration?

    private var line: [UInt8] = []
    private var data = ""
    private var hasData = false
    private var eventType = ""
    private var lastEventIdBuffer = ""
    private var afterCarriageReturn = false
    private var atFirstLine = true

    /// A parser at the start of a stream.
    public init() {}

    /// A parser that resumes a stream: `lastEventId` is what the previous connection last set.
    public init(lastEventId: String) {
        self.lastEventId = lastEventId
        self.lastEventIdBuffer = lastEventId
    }

    /// Feeds the next bytes of the stream; returns the events they complete, in order.
    public mutating func parse(_ bytes: some Sequence<UInt8>) -> [ServerSentEvent] {
        var events: [ServerSentEvent] = []
        for byte in bytes {
            switch byte {
            case UInt8(ascii: "\n") where afterCarriageReturn:
                // The LF of a CRLF whose CR already ended the line.
                afterCarriageReturn = false
            case UInt8(ascii: "\n"), UInt8(ascii: "\r"):
                afterCarriageReturn = byte == UInt8(ascii: "\r")
                if let event = processLine() { events.append(event) }
                line.removeAll(keepingCapacity: true)
            default:
                afterCarriageReturn = false
                line.append(byte)
            }
        }
        return events
    }

    /// Ends the stream: an event without its blank line, and a line without its end, are discarded (an `id` of
    /// that event too); the last event id stays for the next connection.
    public mutating func finish() {
        line.removeAll()
        data = ""
        hasData = false
        eventType = ""
        lastEventIdBuffer = lastEventId
        afterCarriageReturn = false
        atFirstLine = true
    }

    private mutating func processLine() -> ServerSentEvent? {
        var bytes = line[...]
        if atFirstLine {
            atFirstLine = false
            // One leading byte order mark is ignored, as UTF-8 decoding of the stream does.
            if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes = bytes.dropFirst(3) }
        }
        if bytes.isEmpty { return dispatch() }
        if bytes.first == UInt8(ascii: ":") { return nil }
        let field: ArraySlice<UInt8>
        var value: ArraySlice<UInt8> = []
        if let colon = bytes.firstIndex(of: UInt8(ascii: ":")) {
            field = bytes[..<colon]
            value = bytes[(colon + 1)...]
            if value.first == UInt8(ascii: " ") { value = value.dropFirst() }
        } else {
            field = bytes
        }
        apply(field: String(decoding: field, as: UTF8.self), value: value)
        return nil
    }

    private mutating func apply(field: String, value: ArraySlice<UInt8>) {
        switch field {
        case "event":
            eventType = String(decoding: value, as: UTF8.self)
        case "data":
            if hasData { data += "\n" }
            data += String(decoding: value, as: UTF8.self)
            hasData = true
        case "id":
            if !value.contains(0) { lastEventIdBuffer = String(decoding: value, as: UTF8.self) }
        case "retry":
            let isDigits = !value.isEmpty && value.allSatisfy { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }
            if isDigits, let milliseconds = Int64(String(decoding: value, as: UTF8.self)) {
                reconnectionTime = .milliseconds(milliseconds)
            }
        default:
            break
        }
    }

    private mutating func dispatch() -> ServerSentEvent? {
        lastEventId = lastEventIdBuffer
        defer {
            data = ""
            hasData = false
            eventType = ""
        }
        guard hasData else { return nil }
        return ServerSentEvent(type: eventType.isEmpty ? "message" : eventType, data: data, lastEventId: lastEventId)
    }
}
