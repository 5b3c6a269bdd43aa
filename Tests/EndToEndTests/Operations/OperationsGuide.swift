import EventLogTesting
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Docs/operations.md read as its tests read it: its fenced blocks, each with its tag (the words after the fence)
/// and the line it starts on.
///
/// Tags: `sh` runs in order against a temporary data directory, `sh serve` is a `muster serve` line the test starts,
/// `sh env` names the variables the commands use, `sh root` needs root and systemd (not run), `sh tools` runs a
/// script of `Tools/` that `Tools/test` runs, `ini` is a systemd unit or drop-in, `nginx` the proxy's server block.
struct OperationsGuide {
    struct Block {
        var tag: String
        var text: String
        /// The line of its opening fence, 1-based: what a failure names.
        var line: Int
    }

    static let url = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Docs/operations.md")

    let blocks: [Block]

    init() throws {
        let lines = try String(contentsOf: Self.url, encoding: .utf8).split(
            separator: "\n", omittingEmptySubsequences: false)
        var blocks: [Block] = []
        var open: Block?
        for (index, line) in lines.enumerated() {
            guard line.hasPrefix("```") else {
                open?.text += line + "\n"
                continue
            }
            if let block = open {
                blocks.append(block)
                open = nil
            } else {
                open = Block(tag: line.dropFirst(3).trimmingCharacters(in: .whitespaces), text: "", line: index + 1)
            }
        }
        self.blocks = blocks
    }

    func blocks(tagged tag: String) -> [Block] { blocks.filter { $0.tag == tag } }

    /// The names the `sh env` block exports.
    var variables: Set<String> {
        let export = /^export ([A-Z_]+)=/.anchorsMatchLineEndings()
        return Set(blocks(tagged: "sh env").flatMap { $0.text.matches(of: export).map { String($0.output.1) } })
    }
}

/// Runs shell text with `bash -euo pipefail` in a given environment, its output captured in files.
enum Shell {
    struct Outcome: CustomStringConvertible {
        var status: Int32
        var stdout: String
        var stderr: String
        var description: String { "exit \(status)\n--- stdout:\n\(stdout)\n--- stderr:\n\(stderr)" }
    }

    static func run(_ text: String, environment: [String: String], timeout: Double = 600) async throws -> Outcome {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("muster-sh-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        let out = scratch.appendingPathComponent("stdout").path
        let err = scratch.appendingPathComponent("stderr").path
        let process = try ChildProcess(
            "/bin/bash", ["-euo", "pipefail", "-c", text], stdout: out, stderr: err, environment: environment)
        let watchdog = DispatchWorkItem { [process] in
            if process.isRunning { process.send(SIGKILL) }
        }
        DispatchQueue.global().asyncAfter(deadline: .now() + timeout, execute: watchdog)
        let status = ChildProcess.exitCode(await process.waitForExit())
        watchdog.cancel()
        return Outcome(
            status: status, stdout: (try? String(contentsOfFile: out, encoding: .utf8)) ?? "",
            stderr: (try? String(contentsOfFile: err, encoding: .utf8)) ?? "")
    }

    /// The arguments a `muster …` command line of the guide gives muster, after the shell expanded its variables
    /// and quotes (`muster` itself is not run).
    static func musterArguments(_ text: String, environment: [String: String]) async throws -> [String] {
        let outcome = try await run(
            "muster() { printf '%s\\0' \"$@\"; }\n" + text, environment: environment, timeout: 60)
        guard outcome.status == 0 else { throw MusterProcess.Unexpected("expanding \(text): \(outcome)") }
        return outcome.stdout.split(separator: "\0").map(String.init)
    }
}
