import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The two meta pages at the start of an LMDB data file, read with plain file reads before LMDB maps it.
///
/// LMDB maps the whole file and trusts its newest meta page, so a file cut short ends the process with
/// SIGBUS on the first page read past its end, and a failed open still creates `lock.mdb`. This checks
/// only the magic number, version, page size and length — it is not a second LMDB reader. The layout
/// is LMDB 0.9's on a 64-bit machine: a 16-byte page header (flags at 10), then `MDB_meta` — magic u32
/// at 16, version u32 at 20, address, map size, two 48-byte `MDB_db` records (the first one's leading
/// u32, at 40, holds the page size), the last page number u64 at 136 and the transaction id u64 at 144.
struct DataFileHeader: Sendable {
    /// One of the two meta pages.
    struct MetaPage: Sendable {
        var lastPage: UInt64
        var transaction: UInt64
    }

    static let magic: UInt32 = 0xBEEF_C0DE
    static let dataVersion: UInt32 = 1
    /// `P_META` in the page header's flags.
    static let metaFlag: UInt16 = 0x08
    /// Bytes of a page that hold the header and the meta record, up to the transaction id.
    static let metaLength = 152

    /// The page size the file was written with.
    let pageSize: Int
    /// The file's length in bytes.
    let fileSize: Int
    /// The meta page with the higher transaction id, which LMDB opens.
    let newest: MetaPage

    /// The bytes the newest meta page says the file holds: every page up to its last one.
    var requiredSize: Int {
        let pages = newest.lastPage.addingReportingOverflow(1)
        let bytes = pages.partialValue.multipliedReportingOverflow(by: UInt64(pageSize))
        guard !pages.overflow, !bytes.overflow, bytes.partialValue <= UInt64(Int.max) else { return Int.max }
        return Int(bytes.partialValue)
    }

    /// Reads and checks the header of `file`, the data file of `directory`; throws `.corrupt` when it is not
    /// a whole LMDB data file.
    static func read(_ file: URL, of directory: URL) throws -> DataFileHeader {
        let descriptor = open(file.path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            throw StoreError(
                .io, "cannot read \(file.path): \(String(cString: strerror(errno))); check the data directory's owner")
        }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else {
            throw StoreError(.io, "cannot read \(file.path): \(String(cString: strerror(errno)))")
        }
        let fileSize = Int(status.st_size)
        let damaged = Damage(directory: directory, fileSize: fileSize)
        if fileSize == 0 { throw damaged.empty() }

        let first = try page(descriptor, at: 0, file)
        guard first.count >= 24, first.load(16) == magic else { throw damaged.notLMDB() }
        guard first.count == metaLength else { throw damaged.shorterThan(metaLength) }
        let pageSize = Int(first.load(40) as UInt32)
        guard pageSize >= 256, pageSize <= 65_536, pageSize & (pageSize - 1) == 0 else { throw damaged.notLMDB() }
        guard fileSize >= 2 * pageSize else { throw damaged.shorterThan(2 * pageSize) }
        let second = try page(descriptor, at: pageSize, file)
        var metas: [MetaPage] = []
        for bytes in [first, second] {
            guard bytes.count == metaLength, bytes.load(16) == magic, (bytes.load(10) as UInt16) & metaFlag != 0
            else { throw damaged.notLMDB() }
            let version: UInt32 = bytes.load(20)
            guard version == dataVersion else { throw damaged.version(version) }
            metas.append(MetaPage(lastPage: bytes.load(136), transaction: bytes.load(144)))
        }
        let newest = metas[1].transaction > metas[0].transaction ? metas[1] : metas[0]
        let header = DataFileHeader(pageSize: pageSize, fileSize: fileSize, newest: newest)
        guard fileSize >= header.requiredSize else { throw damaged.shorterThan(header.requiredSize) }
        return header
    }

    /// The first `metaLength` bytes of the page at `offset` (fewer at the end of the file).
    private static func page(_ descriptor: Int32, at offset: Int, _ file: URL) throws -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: metaLength)
        let count = bytes.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, metaLength, off_t(offset)) }
        guard count >= 0 else {
            throw StoreError(.io, "cannot read \(file.path): \(String(cString: strerror(errno)))")
        }
        return Array(bytes.prefix(count))
    }

    /// The one-line errors for a damaged data file, each naming the directory and what to do next.
    private struct Damage {
        let directory: URL
        let fileSize: Int

        private var restore: StoreError.Remedy { .restoreBackup(directory: directory.path) }

        func empty() -> StoreError {
            StoreError(
                .corrupt,
                "data directory \(directory.path) is damaged: data.mdb is empty (0 bytes), so nothing was ever stored in it",
                remedy: .startOverOrRestore(directory: directory.path))
        }

        func notLMDB() -> StoreError {
            StoreError(
                .corrupt,
                "data directory \(directory.path) is damaged: data.mdb (\(fileSize) bytes) is not an LMDB data file (its meta pages are missing or overwritten)",
                remedy: restore)
        }

        func version(_ version: UInt32) -> StoreError {
            StoreError(
                .corrupt,
                "data directory \(directory.path) cannot be opened: data.mdb has LMDB data version \(version), this release reads version \(DataFileHeader.dataVersion)",
                remedy: restore)
        }

        func shorterThan(_ required: Int) -> StoreError {
            StoreError(
                .corrupt,
                "data directory \(directory.path) is damaged: data.mdb is \(fileSize) bytes but its pages reach byte \(required) (the file was cut short, by a failed copy or a full disk)",
                remedy: restore)
        }
    }
}

extension [UInt8] {
    /// The native-endian integer at `offset` (LMDB writes its pages in the machine's byte order).
    fileprivate func load<T: FixedWidthInteger>(_ offset: Int) -> T {
        withUnsafeBytes { $0.loadUnaligned(fromByteOffset: offset, as: T.self) }
    }
}
