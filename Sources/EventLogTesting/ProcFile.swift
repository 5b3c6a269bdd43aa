import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// The text of a file of Linux's `/proc`, read to its end.
///
/// Foundation's `String(contentsOfFile:)` and `Data(contentsOf:)` read such a file only as far as its first read
/// returns — one page (about 4 KB) — because `/proc` files report a size of 0: `/proc/net/tcp` lists 26 sockets that
/// way, and a full test run has hundreds listening, so a broker's listener was not found (three fresh-clone CI runs
/// failed "mosquitto did not accept connections within 60 s" while mosquitto had logged "running").
public enum ProcFile {
    /// The bytes of `path` up to its end, or nil when it cannot be opened (no such process, no permission).
    public static func bytes(_ path: String) -> [UInt8]? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var content: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count >= 0 else { return nil }
            if count == 0 { return content }
            content += buffer[..<count]
        }
    }

    /// The text of `path` (UTF-8) up to its end, or nil when it cannot be opened.
    public static func text(_ path: String) -> String? {
        bytes(path).map { String(decoding: $0, as: UTF8.self) }
    }
}
