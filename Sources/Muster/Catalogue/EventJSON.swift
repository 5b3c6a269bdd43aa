import EventLog
import Foundation
import MusterWire

/// The one JSON shape of an event: `muster events` writes it, `muster import` reads it back, and the HTTP
/// API's event list serves it.
public enum EventJSON {
    /// One event as a JSON object on one line, keys in the contract's order. A JSON body is embedded
    /// as JSON, a binary body as `{"base64": "…"}`.
    public static func line(_ event: RecordedEvent) -> [UInt8] { render(event).line }

    /// The event as an ``EventLine``: its line, and the members a table of events shows.
    public static func eventLine(_ event: RecordedEvent) -> EventLine {
        let (line, recordedAt, body) = render(event)
        return EventLine(
            json: line, position: event.position, namespace: event.namespace, stream: event.stream,
            version: event.version, type: event.type, recordedAt: recordedAt, body: body)
    }

    /// The line, and where the text of its `recordedAt` (inside the quotes) and its body stand in it.
    private static func render(_ event: RecordedEvent) -> (line: [UInt8], recordedAt: Range<Int>, body: Range<Int>) {
        var out: [UInt8] = []
        out.reserveCapacity(256 + event.body.bytes.count)
        func key(_ name: String) {
            out.append(out.isEmpty ? UInt8(ascii: "{") : UInt8(ascii: ","))
            appendString(name, to: &out)
            out.append(UInt8(ascii: ":"))
        }
        key("position")
        out += Array(String(event.position).utf8)
        key("id")
        appendString(event.id.uuidString, to: &out)
        key("stream")
        appendString(event.stream, to: &out)
        key("version")
        out += Array(String(event.version).utf8)
        key("type")
        appendString(event.type, to: &out)
        key("schemaVersion")
        out += Array(String(event.schemaVersion).utf8)
        key("recordedAt")
        let time = out.count + 1
        appendString(timestamp(event.recordedAt), to: &out)
        let recordedAt = time..<(out.count - 1)
        key("namespace")
        appendString(event.namespace, to: &out)
        key("actor")
        appendString(event.actor, to: &out)
        key("causationId")
        appendOptional(event.causationId, to: &out)
        key("correlationId")
        appendOptional(event.correlationId, to: &out)
        key("body")
        let body = out.count
        appendBody(event, to: &out)
        let bodyEnd = out.count
        out.append(UInt8(ascii: "}"))
        return (out, recordedAt, body..<bodyEnd)
    }

    /// `recordedAt` (microseconds since 1970) as ISO 8601 in UTC with microseconds.
    public static func timestamp(_ micros: Int64) -> String {
        var seconds = time_t(micros.floorDivided(by: 1_000_000))
        let fraction = micros - Int64(seconds) * 1_000_000
        var parts = tm()
        gmtime_r(&seconds, &parts)
        let fractionText = String(fraction)
        return String(
            format: "%04d-%02d-%02dT%02d:%02d:%02d.", Int(parts.tm_year) + 1900, Int(parts.tm_mon) + 1,
            Int(parts.tm_mday), Int(parts.tm_hour), Int(parts.tm_min), Int(parts.tm_sec))
            + String(repeating: "0", count: 6 - fractionText.count) + fractionText + "Z"
    }

    /// Appends `text` as a JSON string literal.
    public static func appendString(_ text: String, to out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\""): out += [UInt8(ascii: "\\"), UInt8(ascii: "\"")]
            case UInt8(ascii: "\\"): out += [UInt8(ascii: "\\"), UInt8(ascii: "\\")]
            case 0x0A: out += [UInt8(ascii: "\\"), UInt8(ascii: "n")]
            case 0x0D: out += [UInt8(ascii: "\\"), UInt8(ascii: "r")]
            case 0x09: out += [UInt8(ascii: "\\"), UInt8(ascii: "t")]
            case 0..<0x20, 0x7F:
                let hex = String(byte, radix: 16)
                out += Array(("\\u" + String(repeating: "0", count: 4 - hex.count) + hex).utf8)
            default: out.append(byte)
            }
        }
        out.append(UInt8(ascii: "\""))
    }

    /// A JSON string literal for `text`.
    public static func quoted(_ text: String) -> String {
        var out: [UInt8] = []
        appendString(text, to: &out)
        return String(decoding: out, as: UTF8.self)
    }

    private static func appendOptional(_ id: UUID?, to out: inout [UInt8]) {
        if let id { appendString(id.uuidString, to: &out) } else { out += Array("null".utf8) }
    }

    private static func appendBody(_ event: RecordedEvent, to out: inout [UInt8]) {
        let body = event.body
        switch body.format {
        case .json where JSONScanner.isValid(body.bytes):
            // Raw control characters cannot occur inside JSON strings, so every CR/LF is whitespace
            // between tokens: turning it into a space keeps the value and the line intact.
            for byte in body.bytes {
                out.append(byte == 0x0A || byte == 0x0D ? 0x20 : byte)
            }
        case .json:
            // Stored by code that skipped validation: show the text rather than break the line.
            appendString(String(decoding: body.bytes, as: UTF8.self), to: &out)
        case .binary:
            if let json = EventCatalogue.json(event) {
                out += Array(json)
                return
            }
            out += Array("{\"base64\":".utf8)
            appendString(Data(body.bytes).base64EncodedString(), to: &out)
            out.append(UInt8(ascii: "}"))
        }
    }
}

extension Int64 {
    fileprivate func floorDivided(by divisor: Int64) -> Int64 {
        let q = self / divisor
        return (self % divisor < 0) ? q - 1 : q
    }
}
