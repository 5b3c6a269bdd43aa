import EventLog
import Foundation
import MusterWire

/// Printing for commands: JSON documents / JSON lines with `--json`, aligned tables otherwise.
enum Output {
    /// Writes one line to stdout.
    static func line(_ text: String) {
        FileHandle.standardOutput.write(Data((text + "\n").utf8))
    }

    /// Writes an `Encodable` as one line of compact JSON, as the API writes it (keys sorted, dates in UTC).
    static func json(_ value: some Encodable) throws {
        line(String(decoding: try MusterJSON.encoder().encode(value), as: UTF8.self))
    }

    /// Rows as one JSON array with `json`, else as a table under their header.
    static func rows<Row: TableRow>(_ rows: [Row], json: Bool) throws {
        if json { return try Self.json(rows) }
        table(Row.header, rows.map(\.cells))
    }

    /// Writes warnings (what was accepted but is ignored) to stderr, one line each.
    static func warn(_ warnings: [String]) {
        for warning in warnings { FileHandle.standardError.write(Data("muster: warning: \(warning)\n".utf8)) }
    }

    /// Writes rows as an aligned table under a header.
    static func table(_ header: [String], _ rows: [[String]]) {
        var widths = header.map(\.count)
        for row in rows {
            for (i, cell) in row.enumerated() where i < widths.count { widths[i] = max(widths[i], cell.count) }
        }
        func render(_ cells: [String]) -> String {
            cells.enumerated().map { i, c in
                i == cells.count - 1 ? c : c.padding(toLength: widths[i], withPad: " ", startingAt: 0)
            }
            .joined(separator: "  ")
        }
        line(render(header))
        for row in rows { line(render(row)) }
    }

    /// True when stdout/stderr is a terminal (progress bars then, plain lines otherwise).
    static var stderrIsTerminal: Bool { isatty(2) == 1 }
}
