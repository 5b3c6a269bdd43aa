import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Ports of 127.0.0.1 for the peers tests start (brokers, servers, browsers): free ones, and whether one is served.
public enum LoopbackPort {
    /// Why no port could be had.
    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    /// A port nobody listens on now, for a peer to bind a moment later.
    public static func free() throws -> Int {
        let (socket, port) = try bound()
        Glibc.close(socket)
        return port
    }

    /// A socket bound to a free port but not listening, and its port: connecting to it is refused, and nothing else
    /// can listen there while the socket is open. The caller closes it.
    ///
    /// The port is picked at random below the kernel's ephemeral range (`ip_local_port_range`), where nothing is
    /// given out by itself: a port of that range (the kernel's choice for port 0) can be taken, between the test
    /// choosing it and its peer binding it, as the local port of any outgoing connection of the run — a cluster node
    /// failed "bind: Address already in use" so in a full run. The kernel's choice is the fallback.
    public static func bound() throws -> (socket: Int32, port: Int) {
        let below = ephemeralRangeStart
        if below > 11_000 {
            for _ in 0..<64 {
                if let socket = try bindSocket(Int.random(in: 10_000..<below)) { return socket }
            }
        }
        guard let socket = try bindSocket(0) else {
            throw Failure(description: "no free loopback port (errno \(errno))")
        }
        return socket
    }

    /// A socket bound to `port` of 127.0.0.1 (0: the kernel's choice) and the port it has; nil when it is taken.
    private static func bindSocket(_ port: Int) throws -> (socket: Int32, port: Int)? {
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard socket >= 0 else { throw Failure(description: "no socket for finding a free port (errno \(errno))") }
        var address = loopback(port)
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(socket, $0, length) == 0 && getsockname(socket, $0, &length) == 0
            }
        }
        guard bound else {
            Glibc.close(socket)
            return nil
        }
        return (socket, Int(UInt16(bigEndian: address.sin_port)))
    }

    /// The first port the kernel gives out by itself (32768 unless configured otherwise).
    static var ephemeralRangeStart: Int {
        ProcFile.text("/proc/sys/net/ipv4/ip_local_port_range")?.split(whereSeparator: \.isWhitespace).first
            .flatMap { Int($0) } ?? 32_768
    }

    /// Whether a listening socket could be bound to `127.0.0.1:port` now (with `SO_REUSEADDR`, as servers bind).
    public static func canBind(_ port: Int) -> Bool {
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard socket >= 0 else { return false }
        defer { Glibc.close(socket) }
        var reuse: Int32 = 1
        setsockopt(socket, SOL_SOCKET, SO_REUSEADDR, &reuse, socklen_t(MemoryLayout<Int32>.size))
        var address = loopback(port)
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
            }
        }
    }

    /// Whether process `pid` itself listens on TCP `port` of 127.0.0.1 (or of every address) now — not merely
    /// something: a port chosen free may be taken by another test's server before the peer binds it. Read from
    /// /proc/net/tcp (the listening socket's inode) and /proc/PID/fd (the process's sockets).
    public static func isListening(_ port: Int, by pid: Int32) -> Bool { listeningFailure(port, by: pid) == nil }

    /// Why process `pid` does not listen on `port` now (as ``isListening(_:by:)`` reads it), or nil when it does.
    public static func listeningFailure(_ port: Int, by pid: Int32) -> String? {
        guard let table = ProcFile.text("/proc/net/tcp") else {
            return "cannot read /proc/net/tcp: \(String(cString: strerror(errno)))"
        }
        let suffix = ":" + String(format: "%04X", port)
        let inodes = Set(
            table.split(separator: "\n").dropFirst().compactMap { line -> String? in
                let fields = line.split(separator: " ")
                guard fields.count > 9, fields[3] == "0A",
                    fields[1] == "0100007F" + suffix || fields[1] == "00000000" + suffix
                else { return nil }
                return String(fields[9])
            })
        guard !inodes.isEmpty else { return "nothing listens on 127.0.0.1:\(port)" }
        let descriptors: [String]
        do {
            descriptors = try FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/fd")
        } catch {
            return "cannot read /proc/\(pid)/fd: \(error)"
        }
        let owns = descriptors.contains { descriptor in
            guard
                let target = try? FileManager.default.destinationOfSymbolicLink(
                    atPath: "/proc/\(pid)/fd/\(descriptor)"),
                target.hasPrefix("socket:[")
            else { return false }
            return inodes.contains(String(target.dropFirst(8).dropLast()))
        }
        return owns ? nil : "what listens on 127.0.0.1:\(port) is not process \(pid)'s"
    }

    /// Whether something accepts a TCP connection on `127.0.0.1:port` now.
    public static func accepts(_ port: Int) -> Bool { connectionFailure(port) == nil }

    /// Why a TCP connection to `127.0.0.1:port` could not be made now, or nil when it was. The wait is bounded (a
    /// second): a blocking connect to a listener whose queue is full waits out SYN retries, minutes, on whatever
    /// thread called it — in a test, one of the few that run every test's tasks.
    public static func connectionFailure(_ port: Int, within timeout: Duration = .seconds(1)) -> String? {
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0)
        guard socket >= 0 else { return "no socket: \(String(cString: strerror(errno)))" }
        defer { Glibc.close(socket) }
        var address = loopback(port)
        let rc = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        if rc == 0 { return nil }
        guard errno == EINPROGRESS else { return "connect: \(String(cString: strerror(errno)))" }
        var descriptor = pollfd(fd: socket, events: Int16(POLLOUT), revents: 0)
        let milliseconds = Int32(timeout.components.seconds * 1000)
        guard poll(&descriptor, 1, milliseconds) > 0 else { return "connect: no answer within \(timeout)" }
        var code: Int32 = 0
        var length = socklen_t(MemoryLayout<Int32>.size)
        getsockopt(socket, SOL_SOCKET, SO_ERROR, &code, &length)
        return code == 0 ? nil : "connect: \(String(cString: strerror(code)))"
    }

    /// The address `127.0.0.1:port`.
    public static func loopback(_ port: Int) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        return address
    }
}
