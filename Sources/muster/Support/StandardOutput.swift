import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Buffered writing to stdout for commands that print many lines. A closed pipe (`muster events |
/// head`) ends the command quietly instead of killing it with SIGPIPE.
struct StandardOutput: ~Copyable {
    /// stdout was closed by the reader (EPIPE): stop printing, exit 0.
    struct Closed: Error {}

    private var buffer: [UInt8] = []
    private let capacity: Int

    init(capacity: Int = 64 << 10) {
        self.capacity = capacity
        buffer.reserveCapacity(capacity)
        signal(SIGPIPE, SIG_IGN)
    }

    /// Appends a line; writes the buffer out when it is full.
    mutating func line(_ bytes: [UInt8]) throws(Closed) {
        buffer += bytes
        buffer.append(0x0A)
        if buffer.count >= capacity { try flush() }
    }

    mutating func line(_ text: String) throws(Closed) { try line(Array(text.utf8)) }

    /// Writes everything buffered.
    mutating func flush() throws(Closed) {
        var written = 0
        while written < buffer.count {
            let n = buffer.withUnsafeBytes { raw in
                write(STDOUT_FILENO, raw.baseAddress! + written, raw.count - written)
            }
            if n < 0 {
                if errno == EINTR { continue }
                buffer.removeAll(keepingCapacity: true)
                throw Closed()
            }
            written += n
        }
        buffer.removeAll(keepingCapacity: true)
    }
}
