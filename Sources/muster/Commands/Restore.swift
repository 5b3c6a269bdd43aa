import ArgumentParser
import EventLog
import Foundation

/// `muster restore SRC_DIR [--force]`: checks a backup completely, then puts it in place of `--data`.
struct Restore: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Restore a backup into the data directory, after checking it.",
        discussion: """
            Checks SRC_DIR/manifest.json, the size and SHA-256 of data.mdb, the head, the event count, every \
            event's checksum and the commit chain (recomputed up to the manifest's head hash) before anything is \
            replaced; then swaps the copy in atomically. A non-empty data \
            directory is replaced only with --force. Refused (exit 3) while any process has the data directory open: \
            stop the server first.
            """)

    @OptionGroup var data: DataOptions
    @Argument(help: "Backup directory written by `muster backup`.") var source: String
    @Flag(help: "Replace a non-empty data directory (its content is deleted).") var force = false
    @Flag(help: "Print the restored backup's manifest as JSON.") var json = false

    func validate() throws {
        if source.isEmpty {
            throw ValidationError("SRC_DIR must not be empty; give a directory written by muster backup")
        }
    }

    func run() async throws {
        let from = URL(fileURLWithPath: source, isDirectory: true).standardizedFileURL
        if PathContainment.isInside(from, data.directory) {
            throw CommandFailure.invalid(
                "backup \(from.path) is inside the data directory \(data.directory.path) it would replace; move it "
                    + "out of the data directory first, then restore from there")
        }
        let stop = StopSignal()
        let manifest: BackupManifest
        do {
            manifest = try await EventLog.restore(
                from: from, into: data.directory, force: force, progress: PhaseProgress("restore").report,
                cancelled: OperationCancellation(stop.check))
        } catch let error as StoreError where error.code == .cancelled && stop.hasFired {
            throw CommandFailure.failed(
                "restore interrupted; \(data.directory.path) is unchanged and the copy staged beside it was removed")
        }
        if json {
            Output.line(try manifest.jsonLine())
        } else {
            Output.table(
                ["restored", "head", "events", "backup taken"],
                [
                    [
                        data.directory.path, "\(manifest.head)", "\(manifest.eventCount)",
                        manifest.createdAt.formatted(.iso8601),
                    ]
                ])
        }
    }
}
