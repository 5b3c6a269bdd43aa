import Foundation

extension Import {
    /// What an import has committed, and its end on SIGINT or SIGTERM: it stops after the batch being committed and
    /// says which lines are in the log, so that running it again on the rest does not store any line twice.
    ///
    /// Read and written from the import's task, its commit tasks and the signal's queue: every property is guarded
    /// by `lock`.
    final class Interruption: @unchecked Sendable {
        private let lock = NSLock()
        private let file: String
        private var committed = Summary()
        /// The last line of the last batch committed.
        private var lastLine = 0
        private var inFlight: Task<Summary, any Error>?
        private var stopping = false
        private var reading = false
        private var takenOver = false
        private var signal: StopSignal?

        init(file: String) { self.file = file }

        /// Listens for SIGINT and SIGTERM from now on.
        func listen() {
            let signal = StopSignal()
            signal.onSignal { [weak self] in self?.interrupt() }
            locked { self.signal = signal }
        }

        /// True once a signal asked the import to stop.
        var isStopping: Bool { locked { stopping } }

        /// Records a batch that was committed, ending with line `line`.
        func committed(_ summary: Summary, through line: Int) {
            locked {
                committed.add(summary)
                lastLine = max(lastLine, line)
            }
        }

        /// Notes the batch being committed now.
        func committing(_ task: Task<Summary, any Error>) { locked { inFlight = task } }

        /// Reads the next chunk of input. A signal that comes while this waits for input (a pipe, a terminal) ends
        /// the import itself, once the batch being committed is; this read then never returns.
        func read(_ body: () throws -> [UInt8]) rethrows -> [UInt8] {
            locked { reading = true }
            let chunk = try body()
            if locked({
                reading = false; return takenOver
            }) {
                DispatchSemaphore(value: 0).wait()
            }
            return chunk
        }

        /// The line the import ends with, once the batch being committed is.
        var message: String {
            locked {
                guard lastLine > 0 else {
                    return "import interrupted before any line was committed; nothing was imported"
                }
                let rest =
                    file == "-"
                    ? "import the input's lines after line \(lastLine)"
                    : "import the lines after it: tail -n +\(lastLine + 1) \(file) | muster import -"
                return
                    "import interrupted: lines 1–\(lastLine) are committed (\(committed.imported) events imported, last "
                    + "position \(committed.lastPosition)), nothing after them; to go on, \(rest)"
            }
        }

        private func interrupt() {
            let (takeOver, task) = locked {
                stopping = true
                let takeOver = reading && !takenOver
                if takeOver { takenOver = true }
                return (takeOver, inFlight)
            }
            // Else the import notices before its next line.
            guard takeOver else { return }
            Task.detached {
                var line: String
                var status = ExitStatus.failure
                do {
                    _ = try await task?.value
                    line = self.message
                } catch {
                    (status, line) = ExitStatus.of(error) ?? (ExitStatus.failure, "\(error)")
                }
                FileHandle.standardError.write(Data("muster: \(line)\n".utf8))
                Foundation.exit(status)
            }
        }

        private func locked<T>(_ body: () throws -> T) rethrows -> T {
            lock.lock()
            defer { lock.unlock() }
            return try body()
        }
    }
}
