import EventLogTesting
import Foundation

/// The write counters of /proc/self/io: what this process handed to write(2)/pwrite(2), which for
/// LMDB is every dirty page of a commit plus its meta page.
struct ProcessIO {
    /// Bytes passed to write calls (`wchar`).
    var bytes: Int
    /// Number of write calls (`syscw`); LMDB writes each non-adjacent dirty page with its own pwrite.
    var calls: Int
    /// Bytes this process made the block layer write (`write_bytes`): what the disk took for `bytes`; nil where
    /// the kernel keeps no block I/O accounting.
    var blockBytes: Int?

    /// The counters now; nil where the kernel does not report them.
    static func now() -> ProcessIO? {
        guard let text = ProcFile.text("/proc/self/io") else { return nil }
        var fields: [Substring: Int] = [:]
        for line in text.split(separator: "\n") {
            let parts = line.split(separator: ":")
            if parts.count == 2 { fields[parts[0]] = Int(parts[1].trimmingCharacters(in: .whitespaces)) }
        }
        guard let bytes = fields["wchar"], let calls = fields["syscw"] else { return nil }
        return ProcessIO(bytes: bytes, calls: calls, blockBytes: fields["write_bytes"])
    }

    /// What the disk took per byte written since `earlier` (`write_bytes` / `wchar`); nil when either is missing.
    static func diskBytesPerByte(since earlier: ProcessIO?) -> Double? {
        guard let earlier, let later = now(), later.bytes > earlier.bytes,
            let before = earlier.blockBytes, let after = later.blockBytes
        else { return nil }
        return Double(after - before) / Double(later.bytes - earlier.bytes)
    }

    /// Writes per commit since `earlier`, as (bytes, calls); nil when either snapshot is missing.
    static func perCommit(since earlier: ProcessIO?, commits: Int) -> (bytes: Double, calls: Double)? {
        guard let earlier, let later = now(), commits > 0 else { return nil }
        let n = Double(commits)
        return (Double(later.bytes - earlier.bytes) / n, Double(later.calls - earlier.calls) / n)
    }
}
