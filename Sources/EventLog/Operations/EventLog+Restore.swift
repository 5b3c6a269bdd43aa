import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

extension EventLog {
    /// Restores a backup written by `backup(to:)` into the data directory `target`.
    ///
    /// The backup is checked completely before anything is replaced: the manifest, the data file's
    /// size and SHA-256, the head and event count, every event's checksum, and the commit chain recomputed
    /// from the events up to the manifest's head hash. The copy is staged in
    /// a directory beside `target` and renamed into place, so `target` is either untouched or
    /// complete. A non-empty `target` is replaced only with `force`; the old directory is moved aside
    /// and deleted only after the swap. Refused (`.conflict`) while any process has `target` open.
    ///
    /// `cancelled` is looked at between the steps and the pieces copied, up to the swap: a cancelled restore leaves
    /// `target` untouched and removes its staged copy.
    @discardableResult
    public static func restore(
        from source: URL, into target: URL, force: Bool = false,
        progress: @escaping @Sendable (OperationProgress) -> Void = { _ in },
        cancelled: OperationCancellation = .never
    ) async throws -> BackupManifest {
        try await BlockingWork.run("restore") {
            try restoreNow(from: source, into: target, force: force, progress: progress, cancelled: cancelled)
        }
    }

    private static func restoreNow(
        from source: URL, into target: URL, force: Bool, progress: @Sendable (OperationProgress) -> Void,
        cancelled: OperationCancellation
    ) throws -> BackupManifest {
        let manifest = try BackupManifest.read(from: source)
        let sourceData = source.appendingPathComponent(BackupManifest.dataFileName)
        try refuseNonEmpty(target, force: force)
        // Held until the swap: a process with `target` open would go on writing into the replaced files, which are
        // deleted, and lose everything it acknowledges.
        let held = try DirectoryUse.exclusive(target)
        defer { held?.release() }

        let fm = FileManager.default
        let parent = target.deletingLastPathComponent()
        do {
            try fm.createDirectory(at: parent, withIntermediateDirectories: true)
        } catch {
            throw StoreError(.io, "cannot create \(parent.path): \(error.localizedDescription)")
        }
        // Beside the target, so the final rename stays on one file system and is atomic.
        let staging = parent.appendingPathComponent(
            ".\(target.lastPathComponent).restore-\(UUID().uuidString.prefix(8))")
        do {
            // Owner only: it becomes the data directory.
            try fm.createDirectory(
                at: staging, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
        } catch {
            throw StoreError(.io, "cannot create staging directory \(staging.path): \(error.localizedDescription)")
        }
        do {
            let copied = try FileDigest.copy(
                sourceData, to: staging.appendingPathComponent(BackupManifest.dataFileName), progress: progress,
                cancelled: cancelled)
            guard copied.size == manifest.dataFile.size, copied.sha256 == manifest.dataFile.sha256 else {
                throw StoreError(
                    .corrupt,
                    "backup \(source.path) is damaged: \(BackupManifest.dataFileName) has \(copied.size) bytes with SHA-256 \(copied.sha256), the manifest says \(manifest.dataFile.size) bytes with \(manifest.dataFile.sha256); nothing was restored — use another backup"
                )
            }
            try cancelled.check()
            try restoreSecrets(manifest.secrets ?? [], from: source, into: staging)
            try cancelled.check()
            try validate(staging, against: manifest, source: source, progress: progress)
            try cancelled.check()  // the last time: from here the swap goes through
            try refuseNonEmpty(target, force: force)  // again: it may have changed while we copied
            // A target made since the start is held now.
            let heldNow = try held == nil ? DirectoryUse.exclusive(target) : nil
            defer { heldNow?.release() }
            try swap(staging, into: target)
            return manifest
        } catch {
            try? fm.removeItem(at: staging)
            throw error
        }
    }

    /// Opens the staged copy read-only and checks it holds what the manifest says, event by event.
    private static func validate(
        _ staging: URL, against manifest: BackupManifest, source: URL, progress: @Sendable (OperationProgress) -> Void
    ) throws {
        defer { try? FileManager.default.removeItem(at: staging.appendingPathComponent("lock.mdb")) }
        let summary: SnapshotSummary
        let copy: Environment
        do {
            copy = try Environment(directory: staging, readOnly: true)
        } catch let error as StoreError where error.code == .corrupt {
            throw StoreError(
                .corrupt,
                "backup \(source.path) is damaged: its \(BackupManifest.dataFileName) is not a whole LMDB data file; nothing was restored — use another backup"
            )
        }
        defer { copy.close() }
        do {
            summary = try SnapshotSummary.read(copy, projections: [], checkEvents: true, progress: progress)
        } catch let error as StoreError {
            throw StoreError(
                .corrupt,
                "backup \(source.path) is damaged: \(error.message); nothing was restored — use another backup")
        }
        guard summary.head == manifest.head, summary.eventCount == manifest.eventCount else {
            throw StoreError(
                .corrupt,
                "backup \(source.path) holds head \(summary.head) and \(summary.eventCount) events, the manifest says head \(manifest.head) and \(manifest.eventCount) events; nothing was restored — use another backup"
            )
        }
        if let expected = manifest.headHash, summary.headHash != expected {
            throw StoreError(
                .corrupt,
                "backup \(source.path) is damaged: its commit chain ends with hash \(summary.headHash ?? "none"), the manifest says \(expected); nothing was restored — use another backup"
            )
        }
    }

    /// Copies the backup's secret files into the staged data directory, each checked against its digest.
    private static func restoreSecrets(_ files: [BackupManifest.DataFile], from source: URL, into staging: URL) throws {
        guard !files.isEmpty else { return }
        let fm = FileManager.default
        do {
            try fm.createDirectory(
                at: staging.appendingPathComponent(SecretStore.directoryName), withIntermediateDirectories: false,
                attributes: [.posixPermissions: 0o700])
        } catch {
            throw StoreError(.io, "cannot create the secret store in \(staging.path): \(error.localizedDescription)")
        }
        for file in files {
            let parts = file.name.split(separator: "/")
            guard parts.count == 2, parts[0] == SecretStore.directoryName, SecretStore.isFingerprint(String(parts[1]))
            else {
                throw StoreError(
                    .corrupt, "backup \(source.path) lists \(file.name) among its secrets; nothing was restored")
            }
            let copied = try FileDigest.copy(
                source.appendingPathComponent(file.name), to: staging.appendingPathComponent(file.name))
            guard copied.size == file.size, copied.sha256 == file.sha256 else {
                throw StoreError(
                    .corrupt,
                    "backup \(source.path) is damaged: \(file.name) does not match its digest in the manifest; nothing was restored — use another backup"
                )
            }
        }
    }

    private static func refuseNonEmpty(_ target: URL, force: Bool) throws {
        guard !force, let entries = try? FileManager.default.contentsOfDirectory(atPath: target.path), !entries.isEmpty
        else { return }
        throw StoreError(
            .invalidArgument,
            "data directory \(target.path) is not empty; pass --force to replace it (its current content is deleted)")
    }

    /// Puts the staged directory in place of `target`; the old content is removed only after the swap.
    private static func swap(_ staging: URL, into target: URL) throws {
        let fm = FileManager.default
        var isDirectory: ObjCBool = false
        guard fm.fileExists(atPath: target.path, isDirectory: &isDirectory) else {
            try move(staging, target)
            return
        }
        guard isDirectory.boolValue else {
            throw StoreError(
                .invalidArgument, "restore target \(target.path) is a file, not a data directory; give a directory")
        }
        let aside = target.deletingLastPathComponent()
            .appendingPathComponent(".\(target.lastPathComponent).replaced-\(UUID().uuidString.prefix(8))")
        try move(target, aside)
        do {
            try move(staging, target)
        } catch {
            try? move(aside, target)
            throw error
        }
        try? fm.removeItem(at: aside)
    }

    private static func move(_ from: URL, _ to: URL) throws {
        guard rename(from.path, to.path) == 0 else {
            let reason = String(cString: strerror(errno))
            throw StoreError(.io, "cannot rename \(from.path) to \(to.path): \(reason)")
        }
    }
}
