import Foundation
import Logging

#if canImport(Glibc)
    import Glibc
#endif

/// Lines for people, as swift-log's `StreamLogHandler` writes them (`2026-11-27T03:30:00+0000 info muster: key=value
/// [source] message`, metadata sorted by key), for `muster serve --log-format text`. `StreamLogHandler` puts the
/// metadata into words whenever it is set — the HTTP server sets a request id on every request's logger, 5 % of an
/// answer route's CPU for lines never written (bench http-submission); this handler only when it writes a line.
public typealias TextLogHandler = LineLogHandler<TextLines>

/// The lines of `TextLogHandler`.
public enum TextLines: LogLineFormat {
    public static func line(label: String, event: LogEvent, metadata: Logger.Metadata) -> String {
        var merged = metadata
        if let error = event.error {
            merged["error.message"] = "\(error)"
            merged["error.type"] = "\(String(reflecting: type(of: error)))"
        }
        let pretty = merged.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " ")
        let labelPart = label.isEmpty ? "" : " \(label)"
        return "\(timestamp()) \(event.level)\(labelPart):\(pretty.isEmpty ? "" : " \(pretty)") [\(event.source)] "
            + "\(event.message)\n"
    }

    /// The local time to the second with its offset, `2026-11-27T03:30:00+0000`.
    static func timestamp() -> String {
        var now = time(nil)
        var parts = tm()
        guard localtime_r(&now, &parts) != nil else { return "<unknown>" }
        var buffer = [CChar](repeating: 0, count: 64)
        let count = strftime(&buffer, buffer.count, "%Y-%m-%dT%H:%M:%S%z", &parts)
        return String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
