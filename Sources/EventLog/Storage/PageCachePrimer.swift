import Dispatch
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Brings the data file's next pages into the page cache as 4 KiB pages, before LMDB writes them.
///
/// Linux (ext4, kernel 6) caches a range of a file that is first brought in by a write of several pages as one large
/// folio, and writes a large folio back whole once any of its pages is dirty. LMDB writes a commit's contiguous new
/// pages in one call and later rewrites single pages among them (B-tree leaves, pages from its free list), so each
/// such page cost its whole folio at the next commit's `fdatasync`: the disk took 12 times the bytes LMDB wrote on the
/// location route (BENCHMARKS.md, http-locations), and the kernel's walk of those folios was a fifth of the writer
/// thread. A page first read with readahead off comes in as one 4 KiB folio and stays one whatever is written to it
/// later. So the file is extended past LMDB's last page — sparse: no disk is taken until LMDB writes there, and a full
/// disk still fails LMDB's write, not this — and that range is read with readahead off on a thread of its own.
///
/// Pages cached before this ran (a data file written by an earlier release, or evicted and written again in one call)
/// keep the size the kernel gave them.
final class PageCachePrimer: Sendable {
    /// How far ahead of LMDB's last page the file is extended and read (rounded up to a MiB), when it is `used` bytes
    /// long: a quarter of that, from 1 to 64 MiB, so a small store (a cluster node holds one a namespace) keeps little
    /// in the page cache. Extended again when less than half of it is left.
    static func reach(used: Int) -> Int { min(64 << 20, max(1 << 20, used / 4)) }

    /// A descriptor of the data file of our own, for reading without readahead.
    private let reader: Int32
    private let pageSize: Int
    /// The end of the range last handed to the reading thread.
    private let extended = Mutex(0)
    private let stopped = Atomic(false)
    private let queue = DispatchQueue(label: "muster-page-cache-primer", qos: .utility)

    /// Nil where this does not apply (not Linux) or the file cannot be opened again.
    init?(dataFile: String, pageSize: Int) {
        #if os(Linux)
            let reader = open(dataFile, O_RDONLY | O_CLOEXEC)
            guard reader >= 0 else { return nil }
            posix_fadvise(reader, 0, 0, POSIX_FADV_RANDOM)
            self.reader = reader
            self.pageSize = pageSize
        #else
            return nil
        #endif
    }

    deinit { close(reader) }

    /// Called in a write transaction, before LMDB writes anything of it: no other writer of any process can grow the
    /// file meanwhile, so extending it never cuts pages off. `used`: bytes up to LMDB's last page; `file`: LMDB's
    /// descriptor of the data file.
    func prepare(used: Int, mapSize: Int, file: Int32) {
        let range: Range<Int>? = extended.withLock { extended in
            let reach = Self.reach(used: used)
            guard !stopped.load(ordering: .relaxed), used + reach / 2 > extended else { return nil }
            let end = min(mapSize, (used + reach + (1 << 20) - 1) / (1 << 20) * (1 << 20))
            var status = stat()
            guard end > used, fstat(file, &status) == 0 else { return nil }
            let size = Int(status.st_size)
            // Only ever longer: past its size the file holds no page of LMDB's.
            if size < end, ftruncate(file, off_t(end)) != 0 { return nil }
            let start = max(extended, used)
            extended = end
            return start < end ? start..<end : nil
        }
        guard let range else { return }
        queue.async { [self] in read(range) }
    }

    /// Stops reading ahead; the environment is closing.
    func stop() { stopped.store(true, ordering: .relaxed) }

    /// Reads `range` in 256 KiB pieces: with readahead off (`POSIX_FADV_RANDOM`) the kernel still brings each page in
    /// as a folio of its own (measured: disk bytes per byte LMDB wrote ×1.01, as with one `pread` a page), in a third
    /// less CPU than a page a call.
    private func read(_ range: Range<Int>) {
        let piece = 256 << 10
        let buffer = UnsafeMutableRawPointer.allocate(byteCount: piece, alignment: pageSize)
        defer { buffer.deallocate() }
        var offset = range.lowerBound / pageSize * pageSize
        while offset < range.upperBound, !stopped.load(ordering: .relaxed) {
            guard pread(reader, buffer, min(piece, range.upperBound - offset), off_t(offset)) > 0 else { return }
            offset += piece
        }
    }
}
