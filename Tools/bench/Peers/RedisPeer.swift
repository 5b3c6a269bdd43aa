import EventLogTesting
import Foundation

/// A throwaway redis-server on loopback: a free port, no persistence (`--save "" --appendonly no`),
/// its directory a temporary one, started as our child and stopped (SIGTERM to its pid, then
/// reaped) whatever happens.
struct RedisPeer {
    let executable: String

    /// Finds `redis-server` (Debian's package puts it in /usr/bin); nil when it is not installed.
    static func locate() -> RedisPeer? {
        ExternalCommand.find("redis-server", in: ["/usr/bin", "/usr/local/bin"]).map(RedisPeer.init)
    }

    /// `Redis server v=7.0.15 …` as the binary reports it.
    func version() throws -> String {
        let line = try ExternalCommand(executable, ["--version"]).run().output
        return line.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Starts a server, waits until it accepts connections, runs `body` with a connection to it,
    /// and stops it.
    func withServer<T>(_ body: (RedisConnection) throws -> T) throws -> T {
        let directory = try TemporaryDirectory("muster-redis")
        defer { directory.remove() }
        let port = try LoopbackPort.free()
        let arguments = [
            executable, "--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no",
            "--dir", directory.url.path, "--daemonize", "no", "--logfile", "", "--loglevel", "notice",
        ]
        let server = try RedisProcess(arguments)
        defer { server.stop() }
        try server.waitUntilReady(timeout: 20)
        let connection = try RedisConnection(port: port)
        defer { connection.disconnect() }
        return try body(connection)
    }
}

/// The redis-server child: its pid and the read end of the pipe its log goes to. Touched only by
/// the thread that started it.
final class RedisProcess {
    let pid: pid_t
    private let log: Int32
    private var output = ""

    /// Spawns `arguments[0]` with stdout and stderr on a pipe, stdin on /dev/null, an empty signal
    /// mask and default handlers (the spawning thread may block signals; the server must get SIGTERM).
    init(_ arguments: [String]) throws {
        var fds: [Int32] = [0, 0]
        guard pipe(&fds) == 0 else { throw BenchError.command("pipe() failed: errno \(errno)") }
        _ = fcntl(fds[0], F_SETFD, FD_CLOEXEC)
        defer { close(fds[1]) }  // the server has its copy
        do {
            pid = try Spawn.start(arguments, stdout: fds[1], stderr: fds[1], closing: [fds[0]])
        } catch {
            close(fds[0])
            throw error
        }
        log = fds[0]
    }

    /// Reads the server's log until it says it accepts connections; throws with the log when it
    /// exits first or `timeout` seconds pass.
    func waitUntilReady(timeout: Double) throws {
        let deadline = ContinuousClock.now + .seconds(timeout)
        var chunk = [UInt8](repeating: 0, count: 4096)
        while !output.contains("Ready to accept connections") {
            let left = deadline - ContinuousClock.now
            guard left > .zero else {
                throw BenchError.command("redis-server not ready after \(timeout) s: \(output.suffix(600))")
            }
            var descriptor = pollfd(fd: log, events: Int16(POLLIN), revents: 0)
            let milliseconds = Int32(min(left.components.seconds * 1000 + 1, 1000))
            guard poll(&descriptor, 1, milliseconds) >= 0 || errno == EINTR else {
                throw BenchError.command("poll() on the redis-server log failed: errno \(errno)")
            }
            guard descriptor.revents != 0 else { continue }
            let count = read(log, &chunk, chunk.count)
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else {
                throw BenchError.command("redis-server exited before it was ready: \(output.suffix(600))")
            }
            output += String(decoding: chunk[0..<count], as: UTF8.self)
        }
    }

    /// SIGTERM (which, with no persistence configured, exits without writing anything) and reaping.
    func stop() {
        kill(pid, SIGTERM)
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        close(log)
    }
}

/// A reply in RESP2, the protocol `redis-server` speaks.
enum RESPValue: Equatable {
    case simple(String)
    case error(String)
    case integer(Int)
    case bulk([UInt8]?)
    case array([RESPValue]?)
}

/// One blocking TCP connection to redis on loopback, with pipelining: `send` any number of
/// commands, then read as many replies. Touched only by the thread that opened it.
final class RedisConnection {
    private let fd: Int32
    private var buffer: [UInt8] = []
    private var start = 0
    private var pending: [UInt8] = []

    /// Thrown inside a parse when the reply is not all in the buffer yet.
    private struct Incomplete: Error {}

    init(port: Int) throws {
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw BenchError.command("socket() failed: errno \(errno)") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        let connected = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
            }
        }
        guard connected else {
            let error = errno
            close(fd)
            throw BenchError.command("cannot connect to redis on 127.0.0.1:\(port): errno \(error)")
        }
        var on: Int32 = 1
        setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &on, socklen_t(MemoryLayout<Int32>.size))
    }

    func disconnect() { close(fd) }

    // MARK: Writing

    /// Queues one command (an array of bulk strings); `flush` sends everything queued.
    func append(_ arguments: [String]) {
        pending.append(contentsOf: "*\(arguments.count)\r\n".utf8)
        for argument in arguments {
            pending.append(contentsOf: "$\(argument.utf8.count)\r\n".utf8)
            pending.append(contentsOf: argument.utf8)
            pending.append(contentsOf: "\r\n".utf8)
        }
    }

    func flush() throws {
        var sent = 0
        while sent < pending.count {
            let count = pending[sent...].withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { throw BenchError.command("send to redis failed: errno \(errno)") }
            sent += count
        }
        pending.removeAll(keepingCapacity: true)
    }

    /// Sends one command and reads its reply; an error reply is thrown.
    @discardableResult
    func command(_ arguments: [String]) throws -> RESPValue {
        append(arguments)
        try flush()
        let reply = try readReply()
        if case .error(let message) = reply {
            throw BenchError.command("redis \(arguments.prefix(2).joined(separator: " ")): \(message)")
        }
        return reply
    }

    // MARK: Reading

    /// The next reply, whatever its type.
    func readReply() throws -> RESPValue {
        try parse { bytes, i in try Self.value(bytes, &i) }
    }

    /// The next reply as GEOSEARCH … WITHDIST sends it, members being decimal integers: calls
    /// `body(member, metres)` for each, without building any intermediate value.
    func readGeoSearch(_ body: (Int, Double) -> Void) throws {
        var found: [(Int, Double)] = []
        try parse { bytes, i in
            found.removeAll(keepingCapacity: true)
            if bytes[i] == UInt8(ascii: "-") {
                guard case .error(let message) = try Self.value(bytes, &i) else { return }
                throw BenchError.command("redis GEOSEARCH: \(message)")
            }
            let count = try Self.header(UInt8(ascii: "*"), bytes, &i)
            for _ in 0..<max(count, 0) {
                guard try Self.header(UInt8(ascii: "*"), bytes, &i) == 2 else {
                    throw BenchError.parse("GEOSEARCH WITHDIST: an entry is not [member, distance]")
                }
                let member = try Self.bulk(bytes, &i)
                let distance = try Self.bulk(bytes, &i)
                guard let id = Self.integer(bytes[member]), let metres = Self.decimal(bytes[distance]) else {
                    throw BenchError.parse("GEOSEARCH WITHDIST: unexpected entry")
                }
                found.append((id, metres))
            }
        }
        for (id, metres) in found { body(id, metres) }
    }

    /// Runs `parser` on the buffered bytes, reading more from the socket until a whole reply is there.
    private func parse<T>(_ parser: ([UInt8], inout Int) throws -> T) throws -> T {
        while true {
            if start < buffer.count {
                var i = start
                do {
                    let value = try parser(buffer, &i)
                    start = i
                    if start == buffer.count {
                        buffer.removeAll(keepingCapacity: true)
                        start = 0
                    }
                    return value
                } catch is Incomplete {}
            }
            try receive()
        }
    }

    private func receive() throws {
        if start > 0 {
            buffer.removeFirst(start)
            start = 0
        }
        let old = buffer.count
        buffer += repeatElement(0, count: 1 << 16)
        let count = buffer[old...].withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
        buffer.removeLast(1 << 16 - max(count, 0))
        if count < 0 && errno == EINTR { return }
        guard count > 0 else {
            throw BenchError.command(count == 0 ? "redis closed the connection" : "recv failed: errno \(errno)")
        }
    }

    // MARK: RESP2

    /// The line from `i` up to CR LF (excluded); `i` moves past the CR LF.
    private static func line(_ bytes: [UInt8], _ i: inout Int) throws -> Range<Int> {
        var end = i
        while end + 1 < bytes.count {
            if bytes[end] == 13 && bytes[end + 1] == 10 {
                defer { i = end + 2 }
                return i..<end
            }
            end += 1
        }
        throw Incomplete()
    }

    /// `<marker><integer>\r\n`, the head of an array or bulk string.
    private static func header(_ marker: UInt8, _ bytes: [UInt8], _ i: inout Int) throws -> Int {
        guard i < bytes.count else { throw Incomplete() }
        guard bytes[i] == marker else {
            throw BenchError.parse("RESP: expected \(Character(UnicodeScalar(marker))) at byte \(i)")
        }
        i += 1
        let digits = try line(bytes, &i)
        guard let value = integer(bytes[digits]) else { throw BenchError.parse("RESP: bad length") }
        return value
    }

    /// A bulk string's bytes, as a range of `bytes`.
    private static func bulk(_ bytes: [UInt8], _ i: inout Int) throws -> Range<Int> {
        let length = try header(UInt8(ascii: "$"), bytes, &i)
        guard length >= 0 else { throw BenchError.parse("RESP: unexpected null bulk string") }
        guard i + length + 2 <= bytes.count else { throw Incomplete() }
        defer { i += length + 2 }
        return i..<(i + length)
    }

    private static func value(_ bytes: [UInt8], _ i: inout Int) throws -> RESPValue {
        guard i < bytes.count else { throw Incomplete() }
        switch bytes[i] {
        case UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: ":"):
            let marker = bytes[i]
            i += 1
            let text = try line(bytes, &i)
            if marker == UInt8(ascii: ":") { return .integer(integer(bytes[text]) ?? 0) }
            let string = String(decoding: bytes[text], as: UTF8.self)
            return marker == UInt8(ascii: "+") ? .simple(string) : .error(string)
        case UInt8(ascii: "$"):
            var j = i
            if try header(UInt8(ascii: "$"), bytes, &j) < 0 {
                i = j
                return .bulk(nil)
            }
            return .bulk(Array(bytes[try bulk(bytes, &i)]))
        case UInt8(ascii: "*"):
            let count = try header(UInt8(ascii: "*"), bytes, &i)
            guard count >= 0 else { return .array(nil) }
            return .array(try (0..<count).map { _ in try value(bytes, &i) })
        default:
            throw BenchError.parse("RESP: unknown type byte \(bytes[i])")
        }
    }

    /// A decimal integer, optionally negative.
    static func integer(_ digits: ArraySlice<UInt8>) -> Int? {
        var value = 0
        var negative = false
        for (n, byte) in digits.enumerated() {
            if n == 0 && byte == UInt8(ascii: "-") {
                negative = true
                continue
            }
            guard byte >= 48 && byte <= 57 else { return nil }
            value = value * 10 + Int(byte - 48)
        }
        return digits.isEmpty ? nil : negative ? -value : value
    }

    /// A plain decimal such as redis prints distances (`123.4567`).
    static func decimal(_ digits: ArraySlice<UInt8>) -> Double? {
        guard let dot = digits.firstIndex(of: UInt8(ascii: ".")) else { return integer(digits).map(Double.init) }
        guard let whole = integer(digits[..<dot]) else { return nil }
        let fraction = digits[(dot + 1)...]
        guard let part = fraction.isEmpty ? 0 : integer(fraction), part >= 0 else { return nil }
        var scale = 1.0
        for _ in fraction { scale *= 10 }
        return Double(whole) + Double(part) / scale
    }
}
