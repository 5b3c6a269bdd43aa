import ArgumentParser
import EventLog
import Foundation
import Muster

/// `muster listen`: response objects published on a topic, as they come.
struct Listen: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Print the response objects and documents published on TOPIC as JSON lines, until Ctrl-C.",
        discussion: """
            TOPIC is /a/b/c; a + segment matches any one segment, a final # the rest. Responses \
            recorded by any process on the data directory are printed. Over HTTP (administrators) the \
            stream resumes by itself after a dropped connection.
            """)

    @OptionGroup var options: BackendOptions
    @Argument(help: "The topic filter, e.g. /a/b/c, /a/+/c or /a/#.") var topic: String
    @Option(help: "Namespace (default: default; on a server, the login's).") var namespace: String?
    @Option(parsing: .unconditional, help: "First log position to consider (default: only responses from now on).")
    var from: UInt64?

    func run() async throws {
        let filter = try TopicFilter(topic)
        try await options.run(namespace: namespace) { backend in
            let lines = try await backend.listen(filter, topic: topic, from: from)
            try await Self.print(until: StopSignal()) { out in
                for try await line in lines {
                    try out.line(line)
                    try out.flush()
                }
            }
        }
    }

    /// Runs `lines` until it ends, a signal stops it, or the reader goes away.
    static func print(
        until stop: StopSignal, _ lines: @escaping @Sendable (inout StandardOutput) async throws -> Void
    ) async throws {
        let printer = Task {
            var out = StandardOutput()
            try await lines(&out)
        }
        stop.onSignal { printer.cancel() }
        do {
            try await printer.value
        } catch is CancellationError {
            // Stopped by a signal.
        } catch is StandardOutput.Closed {
            // The reader went away.
        }
        withExtendedLifetime(stop) {}
    }
}
