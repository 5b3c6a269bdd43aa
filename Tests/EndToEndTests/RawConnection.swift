import EventLogTesting
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A TCP connection to a server on loopback that sends exactly the bytes it is given — a partial
/// header, half a body, nothing at all — and reads what comes back until the server closes.
///
/// Its reads wait on a thread of their own (``onOwnThread(_:)``), never on Swift's cooperative pool: a read that
/// blocked there waited 30 s for an in-process server which could not answer, every thread being blocked.
final class RawConnection: @unchecked Sendable {
    private let socket: Int32

    /// Connects to `127.0.0.1:port`.
    init(port: Int) throws {
        socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard socket >= 0 else { throw Failure("socket: errno \(errno)") }
        var address = LoopbackPort.loopback(port)
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else {
            close(socket)
            throw Failure("connect to port \(port): errno \(errno)")
        }
    }

    deinit { close(socket) }

    /// Closes this side for writing (a FIN), keeping the socket open to read what still comes.
    func shutdownWriting() throws {
        guard shutdown(socket, Int32(SHUT_WR)) == 0 else { throw Failure("shutdown: errno \(errno)") }
    }

    /// Makes the close in `deinit` reset the connection (an RST, as a client that dies or leaves with unread
    /// data) instead of ending it with a FIN.
    func resetOnClose() throws {
        var linger = Glibc.linger(l_onoff: 1, l_linger: 0)
        guard setsockopt(socket, SOL_SOCKET, SO_LINGER, &linger, socklen_t(MemoryLayout<Glibc.linger>.size)) == 0
        else { throw Failure("setsockopt SO_LINGER: errno \(errno)") }
    }

    func send(_ text: String) throws { try send(bytes: Array(text.utf8)) }

    func send(bytes: [UInt8]) throws {
        let sent = bytes.withUnsafeBytes { Glibc.send(socket, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        guard sent == bytes.count else { throw Failure("send: \(sent) of \(bytes.count) bytes, errno \(errno)") }
    }

    /// Everything the server sends until it closes the connection. Fails after `limit` seconds
    /// without the close, so a server that never closes fails the test instead of hanging it.
    func readUntilClosed(limit: Double = 30) async throws -> String {
        try await onOwnThread { try self.blockingRead(limit: limit) { _ in false } }
    }

    /// What the server sends until the text contains `marker` (or it closes), within `limit` seconds.
    func read(until marker: String, limit: Double = 30) async throws -> String {
        try await onOwnThread { try self.blockingRead(until: marker, limit: limit) }
    }

    /// ``read(until:limit:)`` blocking the calling thread, for a caller on a thread of its own.
    func blockingRead(until marker: String, limit: Double = 30) throws -> String {
        try blockingRead(limit: limit) { $0.contains(marker) }
    }

    private func blockingRead(limit: Double, until done: (String) -> Bool) throws -> String {
        var received: [UInt8] = []
        let deadline = Date().addingTimeInterval(limit)
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let remaining = deadline.timeIntervalSinceNow
            guard remaining > 0 else {
                throw Failure("still open after \(limit) s; received: \(String(decoding: received, as: UTF8.self))")
            }
            var poller = pollfd(fd: socket, events: Int16(POLLIN), revents: 0)
            if poll(&poller, 1, Int32(remaining * 1000)) == 0 { continue }
            let count = buffer.withUnsafeMutableBytes { recv(socket, $0.baseAddress, $0.count, 0) }
            if count <= 0 { return String(decoding: received, as: UTF8.self) }
            received += buffer[0..<count]
            if done(String(decoding: received, as: UTF8.self)) { return String(decoding: received, as: UTF8.self) }
        }
    }

    struct Failure: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }
}
