import ArgumentParser
import EventLog
import Foundation
import Muster

/// `muster audit`: what was sent to people and what they answered, from the log alone.
struct Audit: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Explain what was sent and answered: a table, or JSON lines with --json.",
        discussion: """
            Entries: sends (to or by the user), responses, account, group and device changes and \
            document uploads, area changes and transitions, and every rule decision with its reason, \
            oldest first.
            """)

    @OptionGroup var options: BackendOptions
    @Option(help: "Only what concerns this user.") var user: String?
    @Option(help: "Only responses from and registrations of this device.") var deviceId: String?
    @Option(help: "Only events recorded at or after this ISO 8601 time (e.g. 2026-01-31T08:00:00Z).")
    var since: String?
    @Option(help: "Only this namespace.") var namespace: String?
    @Option(help: "Only this area's definition, transitions and rule decisions.") var area: String?
    @Option(help: "Only this rule's decisions.") var rule: String?

    func validate() throws {
        if let since, Self.parse(since) == nil {
            throw ValidationError("--since \(since) is not an ISO 8601 time such as 2026-01-31T08:00:00Z")
        }
    }

    /// An ISO 8601 date-time (with or without fractional seconds), or a date (midnight UTC).
    static func parse(_ text: String) -> Date? {
        for options: ISO8601DateFormatter.Options in [
            [.withInternetDateTime, .withFractionalSeconds], [.withInternetDateTime], [.withFullDate],
        ] {
            let formatter = ISO8601DateFormatter()
            formatter.formatOptions = options
            if let date = formatter.date(from: text) { return date }
        }
        return nil
    }

    func run() async throws {
        let filter = Muster.Audit.Filter(
            user: user, deviceId: deviceId, since: since.flatMap(Self.parse), namespace: namespace, area: area,
            rule: rule)
        var out = StandardOutput()
        do {
            if !options.json { try out.line(Self.render(Self.header)) }
            var closed = false
            try await options.run(namespace: namespace) { backend in
                try await backend.audit(filter) { entry in
                    do {
                        try out.line(options.json ? entry.json : Array(Self.render(entry.cells).utf8))
                        return true
                    } catch {
                        closed = true
                        return false
                    }
                }
            }
            if closed { throw StandardOutput.Closed() }
            try out.flush()
        } catch is StandardOutput.Closed {
            // The reader went away (`| head`).
        }
    }

    static let header = ["POSITION", "TIME", "WHAT", "DETAIL"]
    private static let widths = [8, 27, 18]

    /// One row of the table: every column but the last padded to its width.
    static func render(_ cells: [String]) -> String {
        cells.enumerated().map { i, cell in
            i >= widths.count ? cell : cell.padding(toLength: max(widths[i], cell.count), withPad: " ", startingAt: 0)
        }
        .joined(separator: "  ")
    }
}
