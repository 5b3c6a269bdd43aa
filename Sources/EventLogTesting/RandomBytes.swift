import Foundation

/// `count` bytes of the system's random source, read in one go: content zstd cannot shrink (like JPEG or MP4),
/// made in milliseconds even in a debug build. Generating them a byte or a word at a time took seconds of a test
/// thread for a few MiB, which on a loaded two-core machine held one of Swift concurrency's two threads from
/// every other test.
public func randomBytes(_ count: Int) -> [UInt8] {
    guard count > 0 else { return [] }
    guard let source = FileHandle(forReadingAtPath: "/dev/urandom") else {
        preconditionFailure("/dev/urandom cannot be opened")
    }
    defer { try? source.close() }
    var bytes: [UInt8] = []
    bytes.reserveCapacity(count)
    while bytes.count < count {
        guard let data = try? source.read(upToCount: count - bytes.count), !data.isEmpty else {
            preconditionFailure("/dev/urandom gave no bytes")
        }
        bytes += data
    }
    return bytes
}
