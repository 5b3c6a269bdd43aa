import Foundation

/// One blocking HTTP/1.1 exchange over a fresh TCP connection to 127.0.0.1, closed after it: the soak's probes
/// (`/metrics`, a live stream opened and dropped) must not keep a connection of their own open in the server.
/// Call it on a thread of its own (`onThread`), never in the cooperative pool.
struct LoopbackSocket {
    private let fd: Int32

    /// Connects to 127.0.0.1:`port`; every read waits at most `timeout` seconds.
    init(port: Int, timeout: Int = 30) throws {
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw BenchError.command("socket failed: errno \(errno)") }
        var wait = timeval(tv_sec: timeout, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &wait, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = in_addr_t(0x7f00_0001).bigEndian
        let rc = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard rc == 0 else {
            let error = errno
            Foundation.close(fd)
            throw BenchError.command("connect to 127.0.0.1:\(port) failed: errno \(error)")
        }
    }

    /// Sends a GET of `path` with `headers`.
    func send(get path: String, headers: [String: String] = [:]) throws {
        var request = "GET \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\n"
        for (name, value) in headers { request += "\(name): \(value)\r\n" }
        let bytes = Array((request + "\r\n").utf8)
        var sent = 0
        while sent < bytes.count {
            let n = bytes[sent...].withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { throw BenchError.command("write to the server failed: errno \(errno)") }
            sent += n
        }
    }

    /// Reads until `done` says the bytes so far are enough, or the server closes; returns what came.
    func read(until done: (String) -> Bool = { _ in false }) throws -> String {
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 16 << 10)
        while true {
            let n = buffer.withUnsafeMutableBytes { Foundation.read(fd, $0.baseAddress, $0.count) }
            if n < 0 && errno == EINTR { continue }
            if n < 0 { throw BenchError.command("read from the server failed: errno \(errno)") }
            if n == 0 { break }
            received += buffer[..<n]
            if done(String(decoding: received, as: UTF8.self)) { break }
        }
        return String(decoding: received, as: UTF8.self)
    }

    /// Hands each chunk read to `body` until it says enough, or the server closes.
    func readChunks(_ body: ([UInt8]) -> Bool) throws {
        var buffer = [UInt8](repeating: 0, count: 64 << 10)
        while true {
            let n = buffer.withUnsafeMutableBytes { Foundation.read(fd, $0.baseAddress, $0.count) }
            if n < 0 && errno == EINTR { continue }
            if n < 0 { throw BenchError.command("read from the server failed: errno \(errno)") }
            if n == 0 || body(Array(buffer[..<n])) { return }
        }
    }

    func close() { Foundation.close(fd) }

    /// GET `path` with `Connection: close`: the status and the body (not de-chunked; the soak reads text lines).
    static func get(port: Int, path: String) throws -> (status: Int, body: String) {
        let socket = try LoopbackSocket(port: port)
        defer { socket.close() }
        try socket.send(get: path, headers: ["Connection": "close"])
        let text = try socket.read()
        guard let end = text.range(of: "\r\n\r\n"), let status = Int(text.split(separator: " ").dropFirst().first ?? "")
        else { throw BenchError.parse("GET \(path): not an HTTP answer: \(text.prefix(200).debugDescription)") }
        return (status, String(text[end.upperBound...]))
    }
}
