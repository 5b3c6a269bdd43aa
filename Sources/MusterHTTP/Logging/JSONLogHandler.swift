import Foundation
import Logging
import Muster
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
            Self.append(value: .dictionary(merged), to: &line)
        }
        line += "}\n".utf8
        sink(String(decoding: line, as: UTF8.self))
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

/// The process's standard error, written one whole line at a time by one writer at a time.
enum StandardError {
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
