import CLMDB

/// A named LMDB database inside the environment (an `MDB_dbi` handle).
public struct Table: Sendable, Hashable {
    /// The table's name in the environment.
    public let name: String
    let dbi: MDB_dbi
}
