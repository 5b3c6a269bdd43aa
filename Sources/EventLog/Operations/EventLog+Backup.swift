import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

extension EventLog {
    /// Writes a hot, compacted, consistent copy of the data directory into `destination` (new or
    /// empty), with a `manifest.json` describing it. Appends continue while the copy runs: LMDB
    /// copies from one read snapshot.
    ///
    /// A failed or cancelled backup leaves nothing: the files it wrote are removed, and the destination too when the
    /// backup made it.
    ///
    /// - Parameters:
    ///   - progress: called from the backup's own thread as phases advance.
    ///   - cancelled: looked at between the steps and after every piece copied or read: an interrupted backup stops
    ///     within a piece, LMDB's copy of the data file too.
    @discardableResult
    public func backup(
        to destination: URL, progress: @escaping @Sendable (OperationProgress) -> Void = { _ in },
        cancelled: OperationCancellation = .never
    ) async throws -> BackupManifest {
        let environment = core.environment
        let projections = configuration.projections
        return try await BlockingWork.run("backup") {
            try Self.backup(
                environment, projections: projections, to: destination, progress: progress, cancelled: cancelled)
        }
    }

    private static func backup(
        _ environment: Environment, projections: [any Projection], to destination: URL,
        progress: @Sendable (OperationProgress) -> Void, cancelled: OperationCancellation
    ) throws -> BackupManifest {
        try cancelled.check()
        let created = try prepareEmptyDirectory(destination, purpose: "backup destination")
        do {
            progress(OperationProgress(phase: "copy", done: 0, total: 1, unit: "files"))
            // Owner only (it holds the same secrets as the data directory), hashed as it is written.
            let dataURL = destination.appendingPathComponent(BackupManifest.dataFileName)
            let digest = try environment.copyCompacted(into: dataURL, cancelled: cancelled)
            progress(OperationProgress(phase: "copy", done: 1, total: 1, unit: "files"))
            // Every number comes from the copy, not the live log, which has moved on meanwhile.
            let copy = try Environment(directory: destination, readOnly: true)
            let summary: SnapshotSummary
            do {
                // Every event and the commit chain, as a restore checks them: a backup of a damaged log could
                // never be restored, and is refused now rather than found out then.
                summary = try SnapshotSummary.read(
                    copy, projections: projections, checkEvents: true, progress: progress)
                copy.close()
            } catch let error as StoreError where error.code == .corrupt {
                copy.close()
                throw StoreError(
                    .corrupt,
                    "data directory \(environment.directory.path) is damaged: \(error.message); no backup was written",
                    remedy: .verifyAndRestore)
            } catch {
                copy.close()
                throw error
            }
            // The reader lock file is recreated on open; a backup is the data file and its manifest.
            try? FileManager.default.removeItem(at: destination.appendingPathComponent("lock.mdb"))
            try cancelled.check()
            let secrets = try copySecrets(
                from: environment.directory.appendingPathComponent(SecretStore.directoryName), into: destination)
            var manifest = BackupManifest(
                format: BackupManifest.currentFormat, musterRelease: MusterRelease.version, createdAt: Date(),
                storeFormat: summary.storeFormat, head: summary.head, eventCount: summary.eventCount,
                projections: summary.projections, blobs: summary.blobs,
                dataFile: .init(name: BackupManifest.dataFileName, size: digest.size, sha256: digest.sha256))
            manifest.secrets = secrets
            manifest.headHash = summary.headHash
            try cancelled.check()
            try manifest.write(to: destination)
            try Self.restrict(destination.appendingPathComponent(BackupManifest.fileName))
            return manifest
        } catch {
            // Leave no half-written backup that could later be mistaken for a good one.
            for name in [BackupManifest.fileName, BackupManifest.dataFileName, "lock.mdb", SecretStore.directoryName] {
                try? FileManager.default.removeItem(at: destination.appendingPathComponent(name))
            }
            // A directory of its own left empty would still look like one of the backups to a retention script.
            if created { rmdir(destination.path) }
            throw error
        }
    }

    /// Copies the secret store's files into `destination/secrets` (owner only), listed with their digests.
    static func copySecrets(from directory: URL, into destination: URL) throws -> [BackupManifest.DataFile] {
        let fingerprints = try SecretStore(directory: directory).fingerprints()
        guard !fingerprints.isEmpty else { return [] }
        let target = destination.appendingPathComponent(SecretStore.directoryName)
        do {
            try FileManager.default.createDirectory(
                at: target, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
        } catch {
            throw StoreError(.io, "cannot create \(target.path): \(error.localizedDescription)")
        }
        return try fingerprints.map { fingerprint in
            let copied = try FileDigest.copy(
                directory.appendingPathComponent(fingerprint), to: target.appendingPathComponent(fingerprint))
            return BackupManifest.DataFile(
                name: "\(SecretStore.directoryName)/\(fingerprint)", size: copied.size, sha256: copied.sha256)
        }
    }

    /// Creates `directory` when missing (and returns true); throws `.invalidArgument` when it exists and is not
    /// empty.
    @discardableResult
    static func prepareEmptyDirectory(_ directory: URL, purpose: String) throws -> Bool {
        let fm = FileManager.default
        var isDirectory: ObjCBool = false
        if fm.fileExists(atPath: directory.path, isDirectory: &isDirectory) {
            guard isDirectory.boolValue else {
                throw StoreError(
                    .invalidArgument, "\(purpose) \(directory.path) is a file; give a new or empty directory")
            }
            let entries = (try? fm.contentsOfDirectory(atPath: directory.path)) ?? []
            guard entries.isEmpty else {
                throw StoreError(
                    .invalidArgument,
                    "\(purpose) \(directory.path) is not empty (\(entries.count) entries); give a new or empty directory"
                )
            }
            return false
        }
        try DataDirectory.create(directory, purpose: purpose)
        return true
    }

    /// Makes a file of a backup or data directory readable by its owner only.
    static func restrict(_ file: URL) throws {
        guard chmod(file.path, DataDirectory.fileMode) == 0 else {
            throw StoreError(
                .io, "cannot restrict the permissions of \(file.path): \(String(cString: strerror(errno)))")
        }
    }
}
