/// Progress of `EventLog.migrate`, reported after each migration is committed.
public struct MigrationProgress: Sendable, Hashable {
    /// The format the data directory has now.
    public var format: UInt32
    /// The format this release writes.
    public var target: UInt32
    /// The summary of the migration just applied.
    public var summary: String
}

extension EventLog {
    /// The format version stored in the data directory (1 when a first-release directory has none).
    public func storedFormatVersion() throws -> UInt32 {
        let meta = Meta(table: core.tables.meta)
        let stored = try core.environment.read { try meta.integer(Meta.formatVersion, in: $0) } ?? 1
        return UInt32(clamping: stored)
    }

    /// Upgrades the data directory to `configuration.formatVersion` by running the configured store
    /// migrations in order, each in its own write transaction together with its new format number,
    /// so an interrupted run resumes where it stopped. Returns the summaries of the migrations applied
    /// (empty when the directory was current). Open the log with `allowOlderFormat` to call this.
    @discardableResult
    public func migrate(progress: @Sendable (MigrationProgress) -> Void = { _ in }) async throws -> [String] {
        let target = configuration.formatVersion
        let stored = try storedFormatVersion()
        if stored > target {
            throw StoreError(
                .newerFormat,
                "data directory \(directory.path) has format \(stored), written by a newer Muster; this release migrates up to format \(target)"
            )
        }
        let meta = Meta(table: core.tables.meta)
        var applied: [String] = []
        for migration in configuration.migrations.sorted(by: { $0.fromFormat < $1.fromFormat })
        where migration.fromFormat >= stored {
            // Reads the format inside the transaction: another process may have migrated meanwhile.
            let ran = try await perform { scope -> Bool in
                let current = try meta.integer(Meta.formatVersion, in: scope.txn) ?? 1
                guard current == UInt64(migration.fromFormat) else {
                    if current > UInt64(migration.fromFormat) { return false }
                    throw StoreError(
                        .corrupt,
                        "data directory has format \(current) but the next migration reads format \(migration.fromFormat); a migration of this release is missing"
                    )
                }
                try migration.migrate(MigrationScope(transaction: scope.txn))
                try meta.setInteger(Meta.formatVersion, UInt64(migration.fromFormat) + 1, in: scope.txn)
                return true
            }
            guard ran else { continue }
            applied.append(migration.summary)
            progress(MigrationProgress(format: migration.fromFormat + 1, target: target, summary: migration.summary))
        }
        return applied
    }
}
