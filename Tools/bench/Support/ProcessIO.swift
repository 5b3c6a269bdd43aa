import Foundation

/// Bytes this process has caused to be written to storage (`write_bytes` of /proc/self/io); nil
/// where the kernel does not report it.
func storageBytesWritten() -> Int? {
    guard let text = try? String(contentsOfFile: "/proc/self/io", encoding: .utf8) else { return nil }
    let line = text.split(separator: "\n").first { $0.hasPrefix("write_bytes:") }
    return line.flatMap { Int($0.dropFirst("write_bytes:".count).trimmingCharacters(in: .whitespaces)) }
}
