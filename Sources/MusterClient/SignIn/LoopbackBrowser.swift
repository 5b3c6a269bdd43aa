import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Signing in from a program without its own browser window (RFC 8252 §7.3): listens on 127.0.0.1 on a free
/// port, has the person open the authorization URL in any browser (``show``), and takes the code from the
/// issuer's redirect to `http://127.0.0.1:<port>/callback`. The issuer must allow that redirect for the client id
/// (RFC 8252 asks issuers to accept any port on the loopback address).
///
/// One sign-in per browser: the listening socket is closed when ``signIn(at:redirectURI:)`` returns.
public final class LoopbackBrowser: OAuthBrowser, @unchecked Sendable {
    // `listener` is set once in init; only the thread `signIn` starts reads from and closes it, and `signIn`
    // runs once (`used`), so the descriptor is never touched by two threads.
    private let listener: Int32
    private let used = Mutex(false)
    private let cancelled = Mutex(false)
    /// The port the redirect comes back to.
    public let port: Int
    /// How long to wait for the person to finish signing in.
    public let timeout: Duration
    /// Tells the person which address to open, e.g. by printing it.
    public let show: @Sendable (URL) -> Void

    /// Listens on 127.0.0.1 on a port the system picks; throws when no socket can be had.
    ///
    /// - Parameters:
    ///   - timeout: how long to wait for the redirect before giving up.
    ///   - show: tells the person the authorization URL to open.
    public init(timeout: Duration = .seconds(300), show: @escaping @Sendable (URL) -> Void) throws(MusterClientError) {
        self.timeout = timeout
        self.show = show
        #if canImport(Glibc)
            let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
            let descriptor = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard descriptor >= 0 else { throw Self.failure("socket") }
        var address = sockaddr_in()
        #if canImport(Darwin)
            address.sin_len = UInt8(MemoryLayout<sockaddr_in>.size)
        #endif
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = in_addr_t(0x7F00_0001).bigEndian
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { socketAddress in
                bind(descriptor, socketAddress, length) == 0 && listen(descriptor, 8) == 0
                    && getsockname(descriptor, socketAddress, &length) == 0
            }
        }
        guard bound else {
            let error = Self.failure("bind 127.0.0.1")
            close(descriptor)
            throw error
        }
        listener = descriptor
        port = Int(UInt16(bigEndian: address.sin_port))
    }

    deinit {
        if !used.withLock({ $0 }) { close(listener) }
    }

    /// `http://127.0.0.1:<port>/callback`, whatever `urlScheme` is.
    public func redirectURI(urlScheme: String) -> URL {
        URL(string: "http://127.0.0.1:\(port)/callback")!
    }

    /// Shows `authorizationURL` and waits for the browser to come back to `/callback`; other requests are
    /// answered 404 and waiting goes on. Throws on timeout, cancellation, or a second call.
    public func signIn(at authorizationURL: URL, redirectURI: URL) async throws -> URL {
        let first = used.withLock { was in
            defer { was = true }
            return !was
        }
        guard first else {
            throw MusterClientError(code: .invalidArgument, message: "a LoopbackBrowser signs in once; make another")
        }
        show(authorizationURL)
        let deadline = ContinuousClock.now + timeout
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<URL, any Error>) in
                let thread = Thread { [self] in
                    defer { close(listener) }
                    continuation.resume(with: Result { try waitForRedirect(until: deadline) })
                }
                thread.name = "muster-loopback-redirect"
                thread.start()
            }
        } onCancel: {
            cancelled.withLock { $0 = true }
        }
    }

    /// Accepts connections until one asks for `/callback`; polls so cancellation and the deadline are seen.
    private func waitForRedirect(until deadline: ContinuousClock.Instant) throws -> URL {
        while true {
            if cancelled.withLock({ $0 }) {
                throw MusterClientError(code: .cancelled, message: "the sign-in was cancelled")
            }
            guard ContinuousClock.now < deadline else {
                throw MusterClientError(
                    code: .cancelled, message: "nobody finished signing in at the issuer within \(timeout)")
            }
            var waiting = pollfd(fd: listener, events: Int16(POLLIN), revents: 0)
            let ready = poll(&waiting, 1, 200)
            if ready < 0 && errno != EINTR { throw Self.failure("poll") }
            guard ready > 0 else { continue }
            let connection = accept(listener, nil, nil)
            guard connection >= 0 else { continue }
            #if canImport(Darwin)
                var on: Int32 = 1
                setsockopt(connection, SOL_SOCKET, SO_NOSIGPIPE, &on, socklen_t(MemoryLayout<Int32>.size))
            #endif
            defer { close(connection) }
            guard let target = Self.requestTarget(connection) else { continue }
            guard target.hasPrefix("/callback?") || target == "/callback" else {
                Self.answer(connection, status: "404 Not Found", text: "Not the sign-in callback.")
                continue
            }
            Self.answer(
                connection, status: "200 OK", text: "Signed in to Muster. You can close this window.")
            guard let url = URL(string: "http://127.0.0.1:\(port)\(target)") else {
                throw MusterClientError(code: .invalidResponse, message: "the redirect's address is not a URL")
            }
            return url
        }
    }

    /// The target of a request's first line (`GET /callback?code=… HTTP/1.1`); nil when none arrives in 5 s.
    private static func requestTarget(_ connection: Int32) -> String? {
        var patience = timeval(tv_sec: 5, tv_usec: 0)
        setsockopt(connection, SOL_SOCKET, SO_RCVTIMEO, &patience, socklen_t(MemoryLayout<timeval>.size))
        var head: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while head.count < 16_384 {
            let count = recv(connection, &buffer, buffer.count, 0)
            guard count > 0 else { break }
            head += buffer[..<count]
            if head.firstIndex(of: 0x0A) != nil { break }
        }
        guard let end = head.firstIndex(of: 0x0A) else { return nil }
        let words = String(decoding: head[..<end], as: UTF8.self).split(separator: " ")
        guard words.count >= 2, words[0] == "GET" else { return nil }
        return String(words[1])
    }

    /// A short plain-text page for the person's browser.
    private static func answer(_ connection: Int32, status: String, text: String) {
        let body = Array(text.utf8)
        let head =
            "HTTP/1.1 \(status)\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: \(body.count)\r\n"
            + "Cache-Control: no-store\r\nConnection: close\r\n\r\n"
        let bytes = Array(head.utf8) + body
        var offset = 0
        while offset < bytes.count {
            // A browser that hung up must not kill the program with SIGPIPE.
            let count = bytes[offset...].withUnsafeBytes { send(connection, $0.baseAddress, $0.count, noSignal) }
            guard count > 0 else { return }
            offset += count
        }
    }

    #if canImport(Darwin)
        private static let noSignal: Int32 = 0
    #else
        private static let noSignal = Int32(MSG_NOSIGNAL)
    #endif

    private static func failure(_ call: String) -> MusterClientError {
        let reason = String(cString: strerror(errno))
        return MusterClientError(
            code: .transport, message: "cannot listen for the sign-in's redirect: \(call): \(reason)")
    }
}
