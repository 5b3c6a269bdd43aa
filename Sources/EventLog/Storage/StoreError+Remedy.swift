extension StoreError {
    /// What an operator does about a failure of the store. The store names the step; each edge words it (the
    /// command line as the command that takes it, the HTTP API in plain words).
    public enum Remedy: Sendable, Hashable, CustomStringConvertible {
        /// Check the whole data directory for damage.
        case verify
        /// Check the data directory, then restore it from a backup.
        case verifyAndRestore
        /// Replace the damaged data directory at `directory` with a backup.
        case restoreBackup(directory: String)
        /// Delete the empty data file of `directory` to start a new log, or restore a backup there.
        case startOverOrRestore(directory: String)
        /// Build the projection again from the log.
        case rebuild(projection: String)
        /// Bring the data directory to this release's format.
        case migrate
        /// Name a directory that a backup wrote.
        case useBackup

        /// The step in plain words, for an edge that runs no commands.
        public var description: String {
            switch self {
            case .verify: "verify the data directory"
            case .verifyAndRestore: "verify the data directory and restore it from a backup"
            case .restoreBackup: "restore the data directory from a backup"
            case .startOverOrRestore: "delete data.mdb to start a new log, or restore the data directory from a backup"
            case .rebuild(let projection): "rebuild projection \(projection)"
            case .migrate: "migrate the data directory to this release's format"
            case .useBackup: "is this a directory a backup wrote?"
            }
        }
    }
}
