import Foundation
import Logging
import Muster

/// One JSON object per line: `{"time","level","label","message","metadata"}`, for log collectors
/// (`muster serve --log-format json`).
///
/// `time` is UTC with milliseconds; `metadata` holds the logger's, the provider's and the call's metadata (the call
/// wins), strings as strings, lists as arrays, dictionaries as objects; it is left out when empty.
public typealias JSONLogHandler = LineLogHandler<JSONLines>

/// The lines of `JSONLogHandler`.
public enum JSONLines: LogLineFormat {
    public static func line(label: String, event: LogEvent, metadata merged: Logger.Metadata) -> String {
        var line = Array("{\"time\":".utf8)
        EventJSON.appendString(Date.now.formatted(Self.timeFormat), to: &line)
        line += ",\"level\":".utf8
        EventJSON.appendString(event.level.rawValue, to: &line)
        line += ",\"label\":".utf8
        EventJSON.appendString(label, to: &line)
        line += ",\"message\":".utf8
        EventJSON.appendString(event.message.description, to: &line)
        if !merged.isEmpty {
            line += ",\"metadata\":".utf8
            append(value: .dictionary(merged), to: &line)
        }
        line += "}\n".utf8
        return String(decoding: line, as: UTF8.self)
    }

    private static let timeFormat = Date.ISO8601FormatStyle(includingFractionalSeconds: true, timeZone: .gmt)

    /// Appends a metadata value as JSON (strings escaped as the event log's JSON escapes them, so a message holding
    /// a newline stays on its line); dictionaries with their keys sorted, so equal metadata reads the same.
    private static func append(value: Logger.MetadataValue, to line: inout [UInt8]) {
        switch value {
        case .string(let text):
            EventJSON.appendString(text, to: &line)
        case .stringConvertible(let convertible):
            EventJSON.appendString(convertible.description, to: &line)
        case .array(let values):
            line.append(UInt8(ascii: "["))
            for (index, element) in values.enumerated() {
                if index > 0 { line.append(UInt8(ascii: ",")) }
                append(value: element, to: &line)
            }
            line.append(UInt8(ascii: "]"))
        case .dictionary(let members):
            line.append(UInt8(ascii: "{"))
            for (index, key) in members.keys.sorted().enumerated() {
                if index > 0 { line.append(UInt8(ascii: ",")) }
                EventJSON.appendString(key, to: &line)
                line.append(UInt8(ascii: ":"))
                append(value: members[key]!, to: &line)
            }
            line.append(UInt8(ascii: "}"))
        }
    }
}
