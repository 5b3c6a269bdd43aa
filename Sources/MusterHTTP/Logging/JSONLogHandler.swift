import Foundation
import Logging
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// A swift-log handler writing one JSON object per line: `{"time","level","label","message","metadata"}`, for log
/// collectors (`muster serve --log-format json`).
///
/// `time` is UTC with milliseconds; `metadata` holds the logger's, the provider's and the call's metadata (the call
/// wins), strings as strings, lists as arrays, dictionaries as objects; it is left out when empty. The handler writes
/// what it is given and nothing else: keeping secrets out of messages and metadata is the callers' rule.
public struct JSONLogHandler: LogHandler {
    /// Where lines go: one call per line, the line ending in `\n`.
    public typealias Sink = @Sendable (String) -> Void

    public var logLevel: Logger.Level = .info
    public var metadata: Logger.Metadata = [:]
    public var metadataProvider: Logger.MetadataProvider?
    private let label: String
    private let sink: Sink

    /// A handler for `label` writing to `sink`.
    public init(label: String, metadataProvider: Logger.MetadataProvider? = nil, sink: @escaping Sink) {
        self.label = label
        self.metadataProvider = metadataProvider
        self.sink = sink
    }

    /// A handler for `label` writing to the process's standard error.
    public static func standardError(label: String, metadataProvider: Logger.MetadataProvider? = nil) -> Self {
        Self(label: label, metadataProvider: metadataProvider, sink: StandardError.write)
    }

    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    public func log(event: LogEvent) {
        var merged = metadata
        if let provided = metadataProvider?.get() { merged.merge(provided) { _, new in new } }
        if let given = event.metadata { merged.merge(given) { _, new in new } }
        var line = "{\"time\":"
        Self.append(string: Date.now.formatted(Self.timeFormat), to: &line)
        line += ",\"level\":"
        Self.append(string: event.level.rawValue, to: &line)
        line += ",\"label\":"
        Self.append(string: label, to: &line)
        line += ",\"message\":"
        Self.append(string: event.message.description, to: &line)
        if !merged.isEmpty {
            line += ",\"metadata\":"
            Self.append(value: .dictionary(merged), to: &line)
        }
        line += "}\n"
        sink(line)
    }

    private static let timeFormat = Date.ISO8601FormatStyle(includingFractionalSeconds: true, timeZone: .gmt)

    /// Appends a metadata value as JSON; dictionaries with their keys sorted, so equal metadata reads the same.
    private static func append(value: Logger.MetadataValue, to line: inout String) {
        switch value {
        case .string(let text):
            append(string: text, to: &line)
        case .stringConvertible(let convertible):
            append(string: convertible.description, to: &line)
        case .array(let values):
            line += "["
            for (index, element) in values.enumerated() {
                if index > 0 { line += "," }
                append(value: element, to: &line)
            }
            line += "]"
        case .dictionary(let members):
            line += "{"
            for (index, key) in members.keys.sorted().enumerated() {
                if index > 0 { line += "," }
                append(string: key, to: &line)
                line += ":"
                append(value: members[key]!, to: &line)
            }
            line += "}"
        }
    }

    /// Appends `text` as a JSON string: quotes, backslashes and control characters escaped, so a message holding a
    /// newline stays on its line.
    private static func append(string text: String, to line: inout String) {
        line += "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": line += "\\\""
            case "\\": line += "\\\\"
            case "\n": line += "\\n"
            case "\r": line += "\\r"
            case "\t": line += "\\t"
            case let control where control.value < 0x20 || (0x7F...0x9F).contains(control.value):
                line +=
                    "\\u" + String(repeating: "0", count: 4 - String(control.value, radix: 16).count)
                    + String(control.value, radix: 16)
            case "\u{2028}": line += "\\u2028"
            case "\u{2029}": line += "\\u2029"
            default: line.unicodeScalars.append(scalar)
            }
        }
        line += "\""
    }
}

/// The process's standard error, written one whole line at a time by one writer at a time.
private enum StandardError {
    private static let lock = Mutex(())

    @Sendable static func write(_ line: String) {
        lock.withLock { _ in
            var bytes = Array(line.utf8)[...]
            while !bytes.isEmpty {
                let written = bytes.withUnsafeBytes { Glibc.write(2, $0.baseAddress, $0.count) }
                if written < 0 {
                    if errno == EINTR { continue }
                    return  // Nowhere left to say it: a log line cannot fail the request it describes.
                }
                bytes = bytes.dropFirst(written)
            }
        }
    }
}
