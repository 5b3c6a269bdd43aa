/// The blob tables and the totals kept in `meta`.
///
/// - `blobChunks`: upload id (16 bytes) · chunk index (u32 BE) → `StoredChunk`
/// - `blobs`:      SHA-256 (32 bytes) → `BlobInfo`
/// - `meta`:       `blobs.count`, `blobs.rawBytes`, `blobs.storedBytes`, updated with every new blob
///
/// Chunks are written under a random upload id while the content streams in (its hash is known only
/// at the end), and the metadata row that makes them a blob is written last, in one transaction.
struct BlobTables {
    let chunks: Table
    let blobs: Table

    static let chunksName = "blobChunks"
    static let blobsName = "blobs"
    static let countKey = "blobs.count"
    static let rawBytesKey = "blobs.rawBytes"
    static let storedBytesKey = "blobs.storedBytes"

    /// Opens the tables inside `txn`; creates them in a write transaction, nil in a read transaction
    /// when no blob was ever stored. Uses `txn` itself (not `existingTable`) so that it never opens a
    /// second read transaction on this thread while one is held.
    static func open(in txn: Transaction) throws -> BlobTables? {
        let env = txn.environment
        if txn.isWrite {
            return BlobTables(
                chunks: try env.createTable(chunksName, in: txn), blobs: try env.createTable(blobsName, in: txn))
        }
        guard let chunks = try env.table(chunksName, in: txn, create: false),
            let blobs = try env.table(blobsName, in: txn, create: false)
        else { return nil }
        return BlobTables(chunks: chunks, blobs: blobs)
    }

    static func chunkKey(upload: [UInt8], index: UInt32) -> [UInt8] {
        upload + withUnsafeBytes(of: index.bigEndian) { Array($0) }
    }

    /// The stored metadata of `id`, or nil.
    func info(_ id: BlobID, in txn: Transaction) throws -> BlobInfo? {
        try id.bytes.withUnsafeBytes { key in
            try txn.get(blobs, key).map { try BlobInfo.decode(id: id, $0) }
        }
    }

    /// The totals kept in `meta`.
    static func totals(meta: Meta, in txn: Transaction) throws -> BlobTotals {
        BlobTotals(
            count: try meta.integer(countKey, in: txn) ?? 0, rawBytes: try meta.integer(rawBytesKey, in: txn) ?? 0,
            storedBytes: try meta.integer(storedBytesKey, in: txn) ?? 0)
    }

    static func add(_ info: BlobInfo, toTotalsIn meta: Meta, in txn: Transaction) throws {
        let totals = try Self.totals(meta: meta, in: txn)
        try meta.setInteger(countKey, totals.count + 1, in: txn)
        try meta.setInteger(rawBytesKey, totals.rawBytes + info.rawSize, in: txn)
        try meta.setInteger(storedBytesKey, totals.storedBytes + info.storedSize, in: txn)
    }
}
