import Crypto

/// The blob part of `verify`: every chunk of every blob decompresses and matches its CRC-32C, the
/// whole matches its SHA-256 and sizes, the totals in `meta` add up, and chunks no blob owns are
/// counted (uploads in progress in the snapshot, or left by failed ones).
struct BlobIntegrityCheck {
    let txn: Transaction
    let meta: Meta
    let progress: @Sendable (OperationProgress) -> Void

    func run(_ report: inout VerifyReport) throws {
        guard let tables = try BlobTables.open(in: txn) else { return }
        let decompressor = try ChunkDecompressor()
        let total = UInt64(try txn.count(tables.blobs))
        var sums = BlobTotals()
        var owned = Set<[UInt8]>()
        try txn.scan(tables.blobs) { key, value in
            guard key.count == 32 else {
                report.add("blobs", "the blobs table has a key of \(key.count) bytes; keys are SHA-256 digests")
                return true
            }
            let id = BlobID(digest: key)
            let info: BlobInfo
            do {
                info = try BlobInfo.decode(id: id, value)
            } catch let error as StoreError {
                report.add("blobs", "blob \(id): \(error.message)", remedy: error.remedy)
                return true
            }
            owned.insert(info.uploadId)
            sums.count += 1
            sums.rawBytes += info.rawSize
            sums.storedBytes += info.storedSize
            check(info, tables, decompressor, &report)
            report.blobs += 1
            progress(OperationProgress(phase: "blobs", done: report.blobs, total: total, unit: "blobs"))
            return true
        }
        let kept = try BlobTables.totals(meta: meta, in: txn)
        if kept != sums {
            report.add(
                "blobs",
                "the blob totals say \(kept.count) blobs, \(kept.rawBytes) raw and \(kept.storedBytes) stored bytes, the blobs add up to \(sums.count), \(sums.rawBytes) and \(sums.storedBytes)"
            )
        }
        try txn.scan(tables.chunks) { key, _ in
            if key.count != 20 || !owned.contains(Array(key[..<16])) { report.unreferencedChunks += 1 }
            return true
        }
    }

    private func check(
        _ info: BlobInfo, _ tables: BlobTables, _ decompressor: ChunkDecompressor, _ report: inout VerifyReport
    ) {
        var hasher = SHA256()
        var raw: UInt64 = 0
        var stored: UInt64 = 0
        for index in 0..<info.chunkCount {
            let what = "blob \(info.id) chunk \(index) of \(info.chunkCount)"
            do {
                let bytes = try BlobTables.chunkKey(upload: info.uploadId, index: index).withUnsafeBytes {
                    key -> [UInt8] in
                    guard let value = try txn.get(tables.chunks, key) else {
                        throw StoreError(.corrupt, "\(what) is missing")
                    }
                    stored += UInt64(value.count - min(value.count, StoredChunk.headerSize))
                    return try decompressor.decode(value, what: what)
                }
                bytes.withUnsafeBytes { hasher.update(bufferPointer: $0) }
                raw += UInt64(bytes.count)
            } catch {
                report.add(
                    "blobs", (error as? StoreError)?.message ?? "\(what): \(error)",
                    remedy: (error as? StoreError)?.remedy)
                return
            }
        }
        let digest = Array(hasher.finalize())
        if digest != info.id.bytes || raw != info.rawSize || stored != info.storedSize {
            report.add(
                "blobs",
                "blob \(info.id) reads back as \(raw) raw / \(stored) stored bytes with SHA-256 \(BlobID(digest: digest)), its metadata says \(info.rawSize) / \(info.storedSize)"
            )
        }
    }
}
