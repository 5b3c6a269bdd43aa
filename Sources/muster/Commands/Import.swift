import ArgumentParser
import EventLog
import Foundation
import Muster
import MusterWire

/// `muster import`: appends events from JSON lines in large batches, one commit per batch.
struct Import: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Append events from a file of JSON lines (or stdin).",
        discussion: """
            Each line: {"stream","type","body","id"?,"namespace"?,"expectedVersion"?,"actor"?, \
            "schemaVersion"?,"causationId"?,"correlationId"?}; the output of `muster events --json` is \
            accepted as it is (other keys are ignored) for events of your own types: Muster's own (UserCreated, \
            PayloadSent …) are recorded by its commands and refused here — copy a whole data directory with \
            muster backup and muster restore. Lines are committed in batches; a bad line stops the import with \
            its number, keeping the batches committed before it and nothing of its own. Interrupted (Ctrl-C, \
            SIGTERM), it stops after the batch being committed and names the last line committed (exit 1).
            """)

    @OptionGroup var data: DataOptions
    @Argument(help: ArgumentHelp("JSON lines to import, or - for stdin.", valueName: "FILE|-")) var file: String
    @Option(help: "Lines per commit.") var batchSize = 5_000
    @Flag(help: "Print the result as JSON.") var json = false

    func validate() throws {
        guard batchSize > 0 else { throw ValidationError("--batch-size must be positive") }
    }

    func run() async throws {
        let input: FileHandle
        var total: UInt64?
        if file == "-" {
            input = FileHandle.standardInput
        } else {
            try InputFile.refuseDirectory(file, expected: "a file of JSON lines, or - for stdin")
            guard let handle = FileHandle(forReadingAtPath: file) else {
                throw CommandFailure.invalid("cannot read \(file): no such file or not readable")
            }
            input = handle
            total = (try? FileManager.default.attributesOfItem(atPath: file)[.size] as? NSNumber)?.uint64Value
        }
        // A data directory made for the import is removed again when nothing of it was stored.
        try await data.withLog(creating: true) { log in try await importLines(from: input, size: total, into: log) }
    }

    private func importLines(from input: FileHandle, size total: UInt64?, into log: EventLog) async throws {
        let progress = Progress("import")
        let interruption = Interruption(file: file)
        interruption.listen()
        var lines = JSONLines { try interruption.read { try input.read(upToCount: 1 << 20).map(Array.init) ?? [] } }
        var batch: [ImportLine] = []
        var summary = Summary()
        var lastReport = Date.distantPast
        // The batch being committed while the next is read: reading runs on this core, the writer on the other.
        var committing: (task: Task<Summary, any Error>, bytesRead: UInt64)?

        func finishCommitting() async throws {
            guard let (task, bytesRead) = committing else { return }
            committing = nil
            summary.add(try await task.value)
            if let total {
                progress.update(bytesRead, of: total, unit: "bytes")
            } else if Date().timeIntervalSince(lastReport) >= 1 {
                lastReport = Date()
                progress.finish("\(summary.imported) events")
            }
        }

        func commit() async throws {
            try await finishCommitting()  // in file order: a failure in an earlier batch is the one reported
            guard !batch.isEmpty else { return }
            let ready = batch
            batch = []
            batch.reserveCapacity(ready.count)
            let task = Task {
                let committed = try await Self.commit(ready, to: log)
                interruption.committed(committed, through: ready.last?.number ?? 0)
                return committed
            }
            interruption.committing(task)
            committing = (task, lines.bytesRead)
        }

        do {
            while let (number, line) = try lines.next() {
                if interruption.isStopping {
                    // The batch being read is left out: the lines committed are whole batches.
                    try await finishCommitting()
                    throw CommandFailure.failed(interruption.message)
                }
                guard line.contains(where: { $0 != 0x20 && $0 != 0x09 }) else { continue }
                do {
                    batch.append(try ImportLine(line, number: number))
                } catch {
                    throw CommandFailure.invalid(error.description)
                }
                if batch.count >= batchSize { try await commit() }
            }
            try await commit()
            try await finishCommitting()
        } catch {
            // A bad line keeps the batches before it: the one under way is committed (or its own failure, earlier
            // in the file, is what is reported).
            try await finishCommitting()
            throw error
        }
        if let total {
            progress.update(total, of: total, unit: "bytes")
        } else {
            progress.finish("\(summary.imported) events")
        }
        if summary.duplicates > 0 {
            FileHandle.standardError.write(
                Data("import: \(summary.duplicates) events were stored already (same ids) and were skipped\n".utf8))
        }
        if json {
            Output.line("{\"imported\":\(summary.imported),\"lastPosition\":\(summary.lastPosition)}")
        } else {
            Output.line("imported \(summary.imported) events; last position \(summary.lastPosition)")
        }
    }

    struct Summary: Sendable {
        var imported = 0
        var duplicates = 0
        var lastPosition: UInt64 = 0

        mutating func add(_ other: Summary) {
            imported += other.imported
            duplicates += other.duplicates
            lastPosition = max(lastPosition, other.lastPosition)
        }
    }

    /// An append that failed inside a batch, with the line it came from.
    private struct LineFailure: Error {
        var line: Int
        /// Lines appended together with `line` (same stream, consecutive).
        var lines: Int
        var error: StoreError
    }

    /// Appends one batch in one write transaction: one append per run of lines of the same stream
    /// (a line with an expected version starts a new one, so the check applies where it was written).
    private static func commit(_ batch: [ImportLine], to log: EventLog) async throws -> Summary {
        var groups: [(line: Int, request: AppendRequest)] = []
        for item in batch {
            if let last = groups.last, item.expectedVersion == nil, last.request.namespace == item.namespace,
                last.request.stream == item.stream
            {
                groups[groups.count - 1].request.events.append(item.event)
            } else {
                let request = AppendRequest(
                    namespace: item.namespace, stream: item.stream, expectedVersion: item.expectedVersion ?? .any,
                    events: [item.event])
                groups.append((item.number, request))
            }
        }
        let requests = groups
        do {
            return try await log.perform { scope in
                var summary = Summary()
                for (line, request) in requests {
                    do {
                        let result = try scope.append(request)
                        if result.wasDuplicate {
                            summary.duplicates += request.events.count
                        } else {
                            summary.imported += request.events.count
                        }
                        summary.lastPosition = max(summary.lastPosition, result.lastPosition)
                    } catch let error as StoreError {
                        throw LineFailure(line: line, lines: request.events.count, error: error)
                    }
                }
                return summary
            }
        } catch let failure as LineFailure {
            // Lines of one stream are appended together, so a failure may belong to any of them.
            let together =
                failure.lines > 1
                ? " (first of lines \(failure.line)–\(failure.line + failure.lines - 1), appended together)" : ""
            throw CommandFailure(
                message: "line \(failure.line)\(together): \(failure.error.line)",
                status: ExitStatus.of(failure.error))
        }
    }
}
