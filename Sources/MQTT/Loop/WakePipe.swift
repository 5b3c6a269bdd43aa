import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// A non-blocking pipe that wakes the network loop's `poll`: other threads write a byte after queueing a packet
/// (libmosquitto only queues in threaded mode) or asking the loop to stop.
final class WakePipe: Sendable {
    let readEnd: Int32
    let writeEnd: Int32
    /// A wake written and not yet drained: the wakes after it need not write again (under load, most publishes
    /// come while the loop has not yet woken for the one before).
    private let pending = Atomic(false)

    init() throws {
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else {
            throw MQTTError(.library, "pipe for the MQTT network loop failed: \(String(cString: strerror(errno)))")
        }
        for end in ends {
            _ = fcntl(end, F_SETFL, fcntl(end, F_GETFL) | O_NONBLOCK)
            _ = fcntl(end, F_SETFD, FD_CLOEXEC)
        }
        readEnd = ends[0]
        writeEnd = ends[1]
    }

    /// Wakes the loop, unless a wake is pending already (or the pipe is full): the loop then wakes anyway, and
    /// what the caller queued before this call is there for it to see.
    func wake() {
        guard !pending.exchange(true, ordering: .acquiringAndReleasing) else { return }
        var byte: UInt8 = 1
        _ = write(writeEnd, &byte, 1)
    }

    /// Empties the pipe after `poll` reported it readable; a wake from now on writes again.
    func drain() {
        // An exchange, not a store: it reads the last wake's `true`, so what that wake's caller queued before it
        // is visible to the loop's work after this.
        _ = pending.exchange(false, ordering: .acquiringAndReleasing)
        var buffer = [UInt8](repeating: 0, count: 64)
        while read(readEnd, &buffer, buffer.count) > 0 {}
    }

    func close() {
        _ = Glibc.close(readEnd)
        _ = Glibc.close(writeEnd)
    }
}
