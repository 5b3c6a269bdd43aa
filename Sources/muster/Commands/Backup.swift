import ArgumentParser
import EventLog
import Foundation

/// `muster backup DEST_DIR`: a hot, compacted, consistent copy of the data directory plus a manifest.
struct Backup: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Copy the data directory into a new backup directory while the server keeps writing.",
        discussion: """
            Writes DEST_DIR/data.mdb (a compacted copy of one consistent snapshot) and DEST_DIR/manifest.json \
            (head, event count, the commit chain's head hash, projections, blob totals, size and SHA-256 of data.mdb). \
            DEST_DIR must be new or empty, and outside the data directory. Interrupted (Ctrl-C, SIGTERM) or failed, \
            it stops at once and removes what it wrote (DEST_DIR too when it made it).
            """)

    @OptionGroup var data: DataOptions
    @Argument(help: "Directory to write the backup into (new or empty).") var destination: String
    @Flag(help: "Print the manifest as JSON.") var json = false

    func validate() throws {
        if destination.isEmpty { throw ValidationError("DEST_DIR must not be empty; give a new or empty directory") }
    }

    func run() async throws {
        let target = URL(fileURLWithPath: destination, isDirectory: true).standardizedFileURL
        if PathContainment.isInside(target, data.directory) {
            throw CommandFailure.invalid(
                "backup destination \(target.path) is inside the data directory \(data.directory.path); give a "
                    + "directory outside it (restoring that backup would delete it with the data directory)")
        }
        let log = try data.open()
        defer { log.close() }
        let stop = StopSignal()
        let manifest: BackupManifest
        do {
            manifest = try await log.backup(
                to: target, progress: PhaseProgress("backup").report, cancelled: OperationCancellation(stop.check))
        } catch let error as StoreError where error.code == .cancelled && stop.hasFired {
            throw CommandFailure.failed("backup interrupted; nothing of it was kept in \(target.path)")
        }
        if json {
            Output.line(try manifest.jsonLine())
        } else {
            Output.table(
                ["backup", "head", "events", "data.mdb bytes", "sha256"],
                [
                    [
                        target.path, "\(manifest.head)", "\(manifest.eventCount)", "\(manifest.dataFile.size)",
                        manifest.dataFile.sha256,
                    ]
                ])
            if let hash = manifest.headHash { Output.line("head hash \(hash) (a checkpoint of the backed-up log)") }
        }
    }
}
