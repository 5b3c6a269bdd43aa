import Foundation
import Logging
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// How an event becomes a line of the log (ending in `\n`), given its handler's label and the metadata merged for
/// it: the logger's, the provider's and the call's, the call winning.
public protocol LogLineFormat: Sendable {
    static func line(label: String, event: LogEvent, metadata: Logger.Metadata) -> String
}

/// A swift-log handler writing one line per event, as `Format` writes it, to a sink. The metadata is kept as given and
/// merged only when a line is written (the HTTP server sets a request id on every request's logger). The handler
/// writes what it is given and nothing else: keeping secrets out of messages and metadata is the callers' rule.
public struct LineLogHandler<Format: LogLineFormat>: LogHandler {
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
        sink(Format.line(label: label, event: event, metadata: merged))
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
