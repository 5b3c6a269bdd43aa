/// An upgrade of the data directory's format from `fromFormat` to `fromFormat + 1`, run by
/// `muster migrate` in one write transaction together with the new format number.
public protocol StoreMigration: Sendable {
    /// The format this migration reads.
    var fromFormat: UInt32 { get }
    /// One line for the operator: what changes.
    var summary: String { get }
    func migrate(_ scope: MigrationScope) throws
}

/// Raw access to the store for a format migration.
public struct MigrationScope {
    /// The write transaction the migration runs in.
    public let transaction: Transaction

    /// A table by name, created when `create` is set.
    public func table(_ name: String, create: Bool = false) throws -> Table? {
        try transaction.environment.table(name, in: transaction, create: create)
    }
}
