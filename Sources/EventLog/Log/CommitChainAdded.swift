/// Format 1 → 2: the log keeps a hash chain over its commits (`CommitChain`). An existing log gets one link over
/// all its events up to the head; from then on every commit adds its own.
///
/// Built into the store (`EventLog.builtInMigrations`, the default of `Configuration.migrations`) rather than
/// listed with the domain's migrations: the chain is the store's own layout, and every program that opens a
/// log through the library — tools, benchmarks, tests — must write the format the `muster` binary reads.
struct CommitChainAdded: StoreMigration {
    var fromFormat: UInt32 { 1 }
    var summary: String { "adds the commit hash chain: one link over the events up to the head" }

    func migrate(_ scope: MigrationScope) throws {
        try scope.linkUnchainedEvents()
    }
}

extension EventLog {
    /// The migrations of the store's own layout, in order: format 1 → 2 adds the commit chain. Domain
    /// migrations follow them.
    public static let builtInMigrations: [any StoreMigration] = [CommitChainAdded()]
}
