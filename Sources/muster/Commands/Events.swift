import ArgumentParser
import EventLog
import Foundation
import Muster

/// `muster events`: prints events of the log, optionally following new ones.
struct Events: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Print events, as JSON lines with --json or as a table.",
        discussion: """
            With --follow, keeps printing events as they are committed, by this machine's server or any \
            other process on the data directory, until Ctrl-C.
            """)

    @OptionGroup var data: DataOptions
    @Option(help: "Only events of this stream (in --namespace, default: default).") var stream: String?
    @Option(help: "Only events of this type.") var type: String?
    @Option(help: "Only events of this namespace.") var namespace: String?
    // Unconditional: `--from -1` is read as a value (and refused as one), not as an option.
    @Option(parsing: .unconditional, help: "First position to print.") var from: UInt64 = 1
    @Option(parsing: .unconditional, help: "Most events to print.") var limit: Int?
    @Flag(help: "Keep printing new events until interrupted.") var follow = false
    @Flag(help: "Print JSON lines.") var json = false

    func validate() throws {
        if let limit, limit < 0 { throw ValidationError("--limit must not be negative") }
    }

    private var query: EventQuery {
        EventQuery(namespace: namespace, stream: stream, type: type, from: max(from, 1), limit: limit)
    }

    func run() async throws {
        let log = try data.open()
        defer { log.close() }
        var out = StandardOutput()
        do {
            if follow {
                try await followEvents(log, &out)
            } else if json {
                try printJSON(log, &out)
            } else {
                try printTable(log, &out)
            }
            try out.flush()
        } catch is StandardOutput.Closed {
            // The reader went away (`| head`): that is how a pipeline ends, not a failure.
        }
    }

    private func printJSON(_ log: EventLog, _ out: inout StandardOutput) throws {
        var closed = false
        _ = try log.read { reader in
            try reader.events(query) { event in
                do {
                    try out.line(EventJSON.line(event))
                    return true
                } catch {
                    closed = true
                    return false
                }
            }
        }
        if closed { throw StandardOutput.Closed() }
    }

    private func printTable(_ log: EventLog, _ out: inout StandardOutput) throws {
        let rows = try log.read { try $0.events(query) }.map(Self.row)
        var widths = Self.header.map(\.count)
        for row in rows {
            for (i, cell) in row.enumerated() { widths[i] = max(widths[i], cell.count) }
        }
        try out.line(Self.render(Self.header, widths))
        for row in rows { try out.line(Self.render(row, widths)) }
    }

    private func followEvents(_ log: EventLog, _ out: inout StandardOutput) async throws {
        // Follows in a child task so SIGINT/SIGTERM can stop it; the handlers are installed first.
        let stop = StopSignal()
        let widths = [8, 27, 9, 16, 7, 20]
        let json = self.json
        let events = log.follow(query)
        if !json { try out.line(Self.render(Self.header, widths)) }
        try out.flush()
        let printer = Task { [events] in
            var out = StandardOutput()
            for try await event in events {
                try out.line(json ? EventJSON.line(event) : Array(Self.render(Self.row(event), widths).utf8))
                try out.flush()
            }
        }
        stop.onSignal { printer.cancel() }
        do {
            try await printer.value
        } catch is CancellationError {
            // Stopped by a signal.
        }
        withExtendedLifetime(stop) {}
    }

    private static let header = ["POSITION", "RECORDED AT", "NAMESPACE", "STREAM", "VERSION", "TYPE", "BODY"]

    private static func row(_ event: RecordedEvent) -> [String] {
        var body = EventJSON.bodyText(event)
        if body.count > 60 { body = String(body.prefix(59)) + "…" }
        return [
            String(event.position), EventJSON.timestamp(event.recordedAt), event.namespace, event.stream,
            String(event.version), event.type, body,
        ]
    }

    private static func render(_ cells: [String], _ widths: [Int]) -> String {
        cells.enumerated().map { i, cell in
            i == cells.count - 1 || i >= widths.count
                ? cell : cell.padding(toLength: max(widths[i], cell.count), withPad: " ", startingAt: 0)
        }
        .joined(separator: "  ")
    }
}

/// Runs an action once, on the first SIGINT or SIGTERM after it was created.
final class StopSignal: @unchecked Sendable {
    // `sources` is set in init and only read afterwards; `action` and `fired` are guarded by `lock`.
    private let lock = NSLock()
    private var action: (@Sendable () -> Void)?
    private var fired = false
    private var sources: [any DispatchSourceSignal] = []

    init() {
        for sig in [SIGINT, SIGTERM] {
            signal(sig, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: sig, queue: .global())
            source.setEventHandler { [weak self] in self?.fire() }
            source.resume()
            sources.append(source)
        }
    }

    deinit { for source in sources { source.cancel() } }

    /// Sets what to do on the signal; runs it at once when the signal came already.
    func onSignal(_ action: @escaping @Sendable () -> Void) {
        lock.lock()
        self.action = action
        let already = fired
        lock.unlock()
        if already { action() }
    }

    /// True once a signal arrived, as a function (for `OperationCancellation`).
    @Sendable func check() -> Bool { hasFired }

    /// True once a signal arrived.
    var hasFired: Bool {
        lock.lock()
        defer { lock.unlock() }
        return fired
    }

    private func fire() {
        lock.lock()
        fired = true
        let action = self.action
        lock.unlock()
        action?()
    }
}
