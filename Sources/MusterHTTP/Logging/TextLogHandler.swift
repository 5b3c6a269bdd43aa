import Foundation
import Logging

#if canImport(Glibc)
    import Glibc
#endif

/// A swift-log handler writing lines for people, as swift-log's `StreamLogHandler` writes them (`2026-11-27T03:30:00+0000
/// info muster: key=value [source] message`, metadata sorted by key), but putting the metadata into words only when a
/// line is written: `StreamLogHandler` does it whenever metadata is set, and the HTTP server sets a request id on
/// every request's logger — 5 % of an answer route's CPU for lines never written (bench http-submission).
public struct TextLogHandler: LogHandler {
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
        if let error = event.error {
            merged["error.message"] = "\(error)"
            merged["error.type"] = "\(String(reflecting: type(of: error)))"
        }
        let pretty = merged.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " ")
        let labelPart = label.isEmpty ? "" : " \(label)"
        sink(
            "\(Self.timestamp()) \(event.level)\(labelPart):\(pretty.isEmpty ? "" : " \(pretty)") [\(event.source)] "
                + "\(event.message)\n")
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
