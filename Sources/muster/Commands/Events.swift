import ArgumentParser
import EventLog
import Foundation
import Muster
import MusterWire

/// `muster events`: prints events of the log, optionally following new ones.
struct Events: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Print events, as JSON lines with --json or as a table.",
        discussion: """
            With --follow, keeps printing events as they are committed, by this machine's server or any \
            other process on the data directory, until Ctrl-C. Over HTTP (administrators) the events are the \
            login's namespace's, and a followed stream resumes by itself after a dropped connection.
            """)

    @OptionGroup var options: BackendOptions
    @Option(help: "Only events of this stream (in --namespace, default: default).") var stream: String?
    @Option(help: "Only events of this type.") var type: String?
    @Option(help: "Only events of this namespace.") var namespace: String?
    // Unconditional: `--from -1` is read as a value (and refused as one), not as an option.
    @Option(parsing: .unconditional, help: "First position to print.") var from: UInt64 = 1
    @Option(parsing: .unconditional, help: "Most events to print.") var limit: Int?
    @Flag(help: "Keep printing new events until interrupted.") var follow = false

    func validate() throws {
        if let limit, limit < 0 { throw ValidationError("--limit must not be negative") }
    }

    private var query: EventQuery {
        EventQuery(namespace: namespace, stream: stream, type: type, from: max(from, 1), limit: limit)
    }

    func run() async throws {
        var out = StandardOutput()
        do {
            try await options.run(namespace: namespace) { backend in
                if follow {
                    try await followEvents(backend, &out)
                } else if options.json {
                    try await printJSON(backend, &out)
                } else {
                    try await printTable(backend, &out)
                }
            }
            try out.flush()
        } catch is StandardOutput.Closed {
            // The reader went away (`| head`): that is how a pipeline ends, not a failure.
        }
    }

    private func printJSON(_ backend: any Backend, _ out: inout StandardOutput) async throws {
        var closed = false
        try await backend.events(query) { event in
            do {
                try out.line(event.json)
                return true
            } catch {
                closed = true
                return false
            }
        }
        if closed { throw StandardOutput.Closed() }
    }

    private func printTable(_ backend: any Backend, _ out: inout StandardOutput) async throws {
        var rows: [[String]] = []
        try await backend.events(query) { event in
            rows.append(Self.row(event))
            return true
        }
        var widths = Self.header.map(\.count)
        for row in rows {
            for (i, cell) in row.enumerated() { widths[i] = max(widths[i], cell.count) }
        }
        try out.line(Self.render(Self.header, widths))
        for row in rows { try out.line(Self.render(row, widths)) }
    }

    private func followEvents(_ backend: any Backend, _ out: inout StandardOutput) async throws {
        // Follows in a child task so SIGINT/SIGTERM can stop it; the handlers are installed first.
        let stop = StopSignal()
        let widths = [8, 27, 9, 16, 7, 20]
        let json = options.json
        let limit = self.limit ?? Int.max
        let events = try await backend.followEvents(query)
        if !json { try out.line(Self.render(Self.header, widths)) }
        try out.flush()
        try await Listen.print(until: stop) { out in
            var printed = 0
            for try await event in events {
                guard printed < limit else { break }
                try out.line(json ? event.json : Array(Self.render(Self.row(event), widths).utf8))
                try out.flush()
                printed += 1
                if printed == limit { break }
            }
        }
    }

    private static let header = ["POSITION", "RECORDED AT", "NAMESPACE", "STREAM", "VERSION", "TYPE", "BODY"]

    private static func row(_ event: EventLine) -> [String] {
        var body = event.body
        if body.count > 60 { body = String(body.prefix(59)) + "…" }
        return [
            String(event.position), event.recordedAt, event.namespace, event.stream, String(event.version), event.type,
            body,
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
