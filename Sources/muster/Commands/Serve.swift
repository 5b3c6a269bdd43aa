import ArgumentParser
import EventLog
import Foundation

/// `muster serve`: keeps the data directory's projections current until SIGINT/SIGTERM.
struct Serve: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Run the server on the data directory (projections now; the HTTP API comes with the HTTP issue).")

    @OptionGroup var data: DataOptions
    @Option(help: "Port for the HTTP API.") var port: Int = 8080
    @Option(help: "Address to listen on.") var host: String = "127.0.0.1"

    func run() async throws {
        let log = try data.open(mustExist: false)
        defer { log.close() }
        let pending = try log.projectionsNeedingRebuild()
        if !pending.isEmpty {
            let progress = Progress("rebuild")
            try await log.rebuild(pending) { step in progress.update(step.checkpoint, of: step.head) }
        }
        FileHandle.standardError.write(
            Data(
                """
                muster serve: data directory \(log.directory.path), log head \(log.head)
                async projections are kept current; other processes may append (muster append …) and are picked up.
                The HTTP API (\(host):\(port)) is not part of this build yet. Stop with Ctrl-C.

                """.utf8))
        let projector = Task { try await log.runAsyncProjections() }
        await waitForTerminationSignal()
        projector.cancel()
        _ = await projector.result
        FileHandle.standardError.write(Data("muster serve: stopped; every acknowledged event is on disk\n".utf8))
    }
}

/// Suspends until SIGINT or SIGTERM arrives.
func waitForTerminationSignal() async {
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
        let once = OnceFlag()
        var sources: [any DispatchSourceSignal] = []
        for sig in [SIGINT, SIGTERM] {
            signal(sig, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: sig, queue: .global())
            source.setEventHandler {
                if once.set() { continuation.resume() }
            }
            source.resume()
            sources.append(source)
        }
        SignalSources.keep(sources)
    }
}

private final class OnceFlag: @unchecked Sendable {
    // Guarded by `lock`.
    private let lock = NSLock()
    private var done = false
    func set() -> Bool {
        lock.lock()
        defer { lock.unlock() }
        if done { return false }
        done = true
        return true
    }
}

/// Keeps signal sources alive for the process's lifetime.
private enum SignalSources {
    nonisolated(unsafe) static var all: [any DispatchSourceSignal] = []
    static func keep(_ sources: [any DispatchSourceSignal]) { all += sources }
}
