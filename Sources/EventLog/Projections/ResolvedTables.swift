import Synchronization

/// The tables of each projection generation that reads have resolved: a read of a projection otherwise builds every
/// table's physical name and looks it up (7 % of an HTTP answer's samples, bench http-submission). Only what read
/// transactions found is kept (a write may create tables and be aborted), each with the environment's count of
/// commits that dropped tables when it was looked up: after such a commit LMDB has closed some handles, so every entry
/// is looked up again.
final class ResolvedTables: Sendable {
    private struct Key: Hashable {
        var projection: String
        var generation: UInt64
    }

    private let known = Mutex<[Key: (epoch: UInt64, tables: [String: Table])]>([:])

    /// The tables found for the generation, when they were found at `epoch`.
    func tables(_ projection: String, _ generation: UInt64, epoch: UInt64) -> [String: Table]? {
        guard let entry = known.withLock({ $0[Key(projection: projection, generation: generation)] }),
            entry.epoch == epoch
        else { return nil }
        return entry.tables
    }

    /// Keeps tables looked up at `epoch` (read before the lookup began).
    func remember(_ tables: [String: Table], _ projection: String, _ generation: UInt64, epoch: UInt64) {
        known.withLock { $0[Key(projection: projection, generation: generation)] = (epoch, tables) }
    }
}
