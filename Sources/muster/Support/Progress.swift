import Foundation

/// Progress of long work on stderr: a redrawn bar on a terminal, plain lines (at most one per
/// second and at each 10 %) otherwise.
final class Progress: @unchecked Sendable {
    // Touched from the command's task only.
    private let label: String
    private let terminal = isatty(2) == 1
    private var lastLine = Date.distantPast
    private var lastTenth = -1

    init(_ label: String) { self.label = label }

    func update(_ done: UInt64, of total: UInt64, unit: String = "events") {
        let fraction = total == 0 ? 1 : min(1, Double(done) / Double(total))
        if terminal {
            let width = 30
            let filled = Int(fraction * Double(width))
            let bar = String(repeating: "█", count: filled) + String(repeating: "░", count: width - filled)
            write("\r\(label) \(bar) \(Int(fraction * 100))% \(done)/\(total) \(unit)")
            if done >= total { write("\n") }
        } else {
            let tenth = Int(fraction * 10)
            if tenth != lastTenth || Date().timeIntervalSince(lastLine) >= 1 || done >= total {
                lastTenth = tenth
                lastLine = Date()
                write("\(label): \(done)/\(total) \(unit) (\(Int(fraction * 100))%)\n")
            }
        }
    }

    /// A final line when the total was not known up front.
    func finish(_ text: String) { write(terminal ? "\r\(label): \(text)\n" : "\(label): \(text)\n") }

    private func write(_ text: String) { FileHandle.standardError.write(Data(text.utf8)) }
}
