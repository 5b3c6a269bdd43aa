import Foundation

/// One figure with its unit, e.g. `12,345 events/s`.
struct Figure: Codable, Sendable {
    /// What was measured: `muster`, `raw LMDB 1/commit`, `pgbench 64 clients`.
    var label: String
    var value: Double
    var unit: String

    var formatted: String { "\(label) \(Figure.grouped(value)) \(unit)" }

    /// `12345.6` → `12,346`; values under 100 keep one decimal.
    static func grouped(_ value: Double) -> String {
        if value < 100 { return String(format: "%.1f", value) }
        let digits = String(Int(value.rounded()))
        var out = ""
        for (offset, character) in digits.enumerated() {
            if offset > 0 && (digits.count - offset) % 3 == 0 { out.append(",") }
            out.append(character)
        }
        return out
    }
}

/// One line of the report: Muster's figure against one baseline, or why one side is missing.
struct Comparison: Codable, Sendable {
    var name: String
    /// Nil when the Muster side is pending or skipped; `status` says why.
    var figure: Figure?
    /// Nil when the peer is skipped; `status` says why.
    var baseline: Figure?
    /// `figure / baseline` when both were measured in this run.
    var ratio: Double?
    /// `pending: …` or `skipped: …` when a side is missing.
    var status: String?

    init(_ name: String, figure: Figure?, baseline: Figure?, status: String? = nil) {
        self.name = name
        self.figure = figure
        self.baseline = baseline
        self.status = status
        if let figure, let baseline, baseline.value > 0 { ratio = figure.value / baseline.value }
    }
}

/// What one scenario measured: its comparisons plus figures that only give context.
struct ScenarioReport: Codable, Sendable {
    var scenario: String
    var comparisons: [Comparison] = []
    var context: [Figure] = []
    var notes: [String] = []
    /// Set when the scenario threw.
    var error: String?

    init(_ scenario: String) { self.scenario = scenario }

    /// The column titles printed above the first scenario.
    static var header: String { row("name", "figure", "baseline", "ratio") }

    /// The report as printed: one line per comparison, then indented context and notes.
    var lines: [String] {
        var lines = comparisons.map { c in
            let figure = c.figure?.formatted ?? (c.status ?? "—")
            let baseline = c.baseline?.formatted ?? (c.figure == nil ? "—" : (c.status ?? "—"))
            return Self.row(c.name, figure, baseline, c.ratio.map { String(format: "×%.2f", $0) } ?? "—")
        }
        lines += context.map { "    context: \($0.formatted)" }
        lines += notes.map { "    note: \($0)" }
        if let error { lines.append("\(Self.pad(scenario, 30))  FAILED: \(error)") }
        return lines
    }

    private static func row(_ name: String, _ figure: String, _ baseline: String, _ ratio: String) -> String {
        [pad(name, 30), pad(figure, 44), pad(baseline, 50), ratio].joined(separator: "  ")
    }

    private static func pad(_ text: String, _ width: Int) -> String {
        text.count >= width ? text : text + String(repeating: " ", count: width - text.count)
    }
}

/// Everything a run measured, as `--json` writes it.
struct RunReport: Codable, Sendable {
    var date: Date
    var command: String
    var build: String
    var cores: Int
    var lmdb: String
    var zstd: String
    var smoke: Bool
    var scenarios: [ScenarioReport]
}
