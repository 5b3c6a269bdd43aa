import CLMDB
import Foundation

/// LMDB through its C API with nothing on top: the physical limit every Muster figure is held to.
///
/// Owns one `MDB_env*`. Not shared: the thread that created it runs every transaction and closes it.
final class RawLMDB: @unchecked Sendable {
    private let env: OpaquePointer

    /// Opens (creating when `readOnly` is false) an environment in `directory`.
    init(directory: URL, mapSize: Int = 16 << 30, readOnly: Bool = false) throws {
        var env: OpaquePointer?
        try check(mdb_env_create(&env), "mdb_env_create")
        self.env = env!
        // Every property is set: when a step below throws, `deinit` closes the handle (closing it here too freed it
        // twice).
        try check(mdb_env_set_maxdbs(self.env, 512), "mdb_env_set_maxdbs")
        try check(mdb_env_set_mapsize(self.env, mapSize), "mdb_env_set_mapsize")
        // The same flags as Muster's Environment: durable commits, no TLS slots, no read-ahead.
        var flags = UInt32(MDB_NOTLS) | UInt32(MDB_NORDAHEAD)
        if readOnly { flags |= UInt32(MDB_RDONLY) }
        try check(mdb_env_open(self.env, directory.path, flags, 0o644), "mdb_env_open(\(directory.path))")
    }

    deinit { mdb_env_close(env) }

    /// Appends `eventsPerCommit` values of `valueSize` bytes per durable commit into one table with
    /// `MDB_APPEND`, for `duration` seconds. Returns commits and events per second, and the bytes and
    /// write calls per commit where the kernel reports them.
    func appendRate(
        eventsPerCommit: Int, valueSize: Int, duration: Double
    ) throws -> (commits: Double, events: Double, written: (bytes: Double, calls: Double)?) {
        let value = [UInt8](SampleBody.text(0, size: valueSize).utf8)
        // A table of its own per run, so every run appends from key 1 into an empty B-tree.
        let dbi = try createTable("events-\(eventsPerCommit)-per-commit")
        var key: UInt64 = 0
        var commits = 0
        let io = ProcessIO.now()
        let start = ContinuousClock.now
        var elapsed = 0.0
        repeat {
            var txn: OpaquePointer?
            try check(mdb_txn_begin(env, nil, 0, &txn), "mdb_txn_begin")
            for _ in 0..<eventsPerCommit {
                key += 1
                var bigEndian = key.bigEndian
                let rc = withUnsafeMutableBytes(of: &bigEndian) { k in
                    value.withUnsafeBytes { v in
                        var mk = MDB_val(mv_size: k.count, mv_data: k.baseAddress)
                        var mv = MDB_val(mv_size: v.count, mv_data: UnsafeMutableRawPointer(mutating: v.baseAddress))
                        return mdb_put(txn, dbi, &mk, &mv, UInt32(MDB_APPEND))
                    }
                }
                if rc != 0 {
                    mdb_txn_abort(txn)
                    throw BenchError.lmdb(rc, "mdb_put(MDB_APPEND)")
                }
            }
            try check(mdb_txn_commit(txn), "mdb_txn_commit")
            commits += 1
            elapsed = seconds(since: start)
        } while elapsed < duration
        let written = ProcessIO.perCommit(since: io, commits: commits)
        return (Double(commits) / elapsed, Double(commits * eventsPerCommit) / elapsed, written)
    }

    private func createTable(_ name: String) throws -> MDB_dbi {
        var txn: OpaquePointer?
        try check(mdb_txn_begin(env, nil, 0, &txn), "mdb_txn_begin")
        var dbi = MDB_dbi()
        let rc = mdb_dbi_open(txn, name, UInt32(MDB_CREATE), &dbi)
        if rc != 0 {
            mdb_txn_abort(txn)
            throw BenchError.lmdb(rc, "mdb_dbi_open(\(name))")
        }
        try check(mdb_txn_commit(txn), "mdb_txn_commit")
        return dbi
    }

    /// The id of the last committed write transaction: how many commits the environment has seen.
    var lastTransactionId: Int {
        var info = MDB_envinfo()
        mdb_env_info(env, &info)
        return info.me_last_txnid
    }

    /// Visits every entry of `table` with a cursor, touching each value. Returns entries and bytes seen,
    /// and a checksum of the values' last bytes that keeps the optimiser from skipping the reads.
    func scan(table: String) throws -> (entries: Int, bytes: Int, checksum: UInt8) {
        var txn: OpaquePointer?
        try check(mdb_txn_begin(env, nil, UInt32(MDB_RDONLY), &txn), "mdb_txn_begin(read)")
        defer { mdb_txn_abort(txn) }
        var dbi = MDB_dbi()
        try check(mdb_dbi_open(txn, table, 0, &dbi), "mdb_dbi_open(\(table))")
        var cursor: OpaquePointer?
        try check(mdb_cursor_open(txn, dbi, &cursor), "mdb_cursor_open")
        defer { mdb_cursor_close(cursor) }
        var key = MDB_val()
        var value = MDB_val()
        var entries = 0
        var bytes = 0
        var checksum: UInt8 = 0
        var rc = mdb_cursor_get(cursor, &key, &value, MDB_FIRST)
        while rc == 0 {
            entries += 1
            bytes += value.mv_size
            // Read the value's last byte so the scan pays for touching the page, as a reader would.
            if value.mv_size > 0 { checksum &+= value.mv_data.load(fromByteOffset: value.mv_size - 1, as: UInt8.self) }
            rc = mdb_cursor_get(cursor, &key, &value, MDB_NEXT)
        }
        guard rc == MDB_NOTFOUND else { throw BenchError.lmdb(rc, "mdb_cursor_get") }
        return (entries, bytes, checksum)
    }

    /// "LMDB 0.9.24".
    static var version: String { String(cString: mdb_version(nil, nil, nil)) }
}

func check(_ rc: Int32, _ call: @autoclosure () -> String) throws {
    if rc != 0 { throw BenchError.lmdb(rc, call()) }
}
