import Foundation

/// How to reach NATS: the servers, the name the connection shows, credentials and timeouts.
///
/// The password is held for libnats only: it never appears in `description`, a log line or an error text; nor does
/// a password written into a server URL (`nats://user:password@host:4222`).
public struct NATSConfiguration: Sendable, CustomStringConvertible {
    /// The servers' URLs (`nats://127.0.0.1:4222`); the connection tries them in random order (libnats' default,
    /// which spreads clients over a cluster), and after a loss the others first. Servers of a cluster tell the client
    /// about the rest, so one reachable URL is enough to start.
    public var servers: [String]
    /// The name the servers show for this connection (`nats server report connections`, monitoring).
    public var name: String
    /// The user name to authenticate with, or nil.
    public var userName: String?
    /// The password for `userName`.
    public var password: String?
    /// How long one server may take to accept the connection.
    public var connectTimeout: Duration
    /// The default wait for JetStream's answers: a publish's acknowledgement, stream and key-value requests.
    public var requestTimeout: Duration
    /// The wait before trying a server again after a loss; the connection tries again forever.
    public var reconnectWait: Duration
    /// How often the client pings the server; two pings without a pong count as a lost connection (that is how a
    /// server that hangs without closing its socket is noticed).
    public var pingInterval: Duration
    /// TLS to the servers, or nil for none (unless a URL says `tls://`).
    public var tls: NATSTLS?

    /// A configuration; `servers` is one URL or several separated by commas
    /// (`nats://10.0.0.1:4222,nats://10.0.0.2:4222`).
    public init(
        servers: String, name: String, userName: String? = nil, password: String? = nil,
        connectTimeout: Duration = .seconds(2), requestTimeout: Duration = .seconds(5),
        reconnectWait: Duration = .milliseconds(250), pingInterval: Duration = .seconds(10), tls: NATSTLS? = nil
    ) {
        self.servers = servers.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty }
        self.name = name
        self.userName = userName
        self.password = password
        self.connectTimeout = connectTimeout
        self.requestTimeout = requestTimeout
        self.reconnectWait = reconnectWait
        self.pingInterval = pingInterval
        self.tls = tls
    }

    /// The servers without credentials, the way errors and logs name them.
    public var address: String {
        servers.map(Self.withoutCredentials).joined(separator: ",")
    }

    /// The servers, name and user name; never the password.
    public var description: String {
        "NATS \(address) as \(name)" + (userName.map { " (user \($0))" } ?? "")
    }

    /// Throws `invalidArgument` when a value cannot work.
    func validate() throws {
        if servers.isEmpty {
            throw NATSError(.invalidArgument, "no NATS server URL given; expected nats://host:port[,nats://…]")
        }
        for duration in [connectTimeout, requestTimeout, pingInterval] where duration.milliseconds <= 0 {
            throw NATSError(
                .invalidArgument, "the NATS timeouts and ping interval must be at least 1 ms, not \(duration)")
        }
        if let tls, (tls.certificateFile == nil) != (tls.keyFile == nil) {
            throw NATSError(.invalidArgument, "a client certificate for NATS goes with its key: give both or neither")
        }
        if reconnectWait < .zero {
            throw NATSError(.invalidArgument, "the NATS reconnect wait must not be negative, not \(reconnectWait)")
        }
    }

    /// Texts that must not appear in errors: the password and any written into a URL.
    var secrets: [String] {
        [password].compactMap { $0 } + servers.compactMap { URLComponents(string: $0)?.password }
    }

    /// `url` without the `user:password@` part.
    static func withoutCredentials(_ url: String) -> String {
        guard let at = url.lastIndex(of: "@") else { return url }
        let scheme = url.range(of: "://").map { String(url[..<$0.upperBound]) } ?? ""
        return scheme + url[url.index(after: at)...]
    }
}

extension Duration {
    /// Whole milliseconds, as libnats takes them.
    var milliseconds: Int64 {
        let (seconds, attoseconds) = components
        return seconds * 1000 + attoseconds / 1_000_000_000_000_000
    }

    /// Whole nanoseconds, as JetStream's configurations take them.
    var nanoseconds: Int64 {
        let (seconds, attoseconds) = components
        return seconds * 1_000_000_000 + attoseconds / 1_000_000_000
    }
}

/// TLS to NATS servers: the certificate authorities their certificates are checked against, and this client's own
/// certificate and key when the servers ask clients for one.
public struct NATSTLS: Sendable, Hashable {
    /// A PEM file of the authorities.
    public var caFile: String
    /// A PEM file of the client's certificate (with `keyFile`), or nil.
    public var certificateFile: String?
    /// A PEM file of its private key (not encrypted).
    public var keyFile: String?

    public init(caFile: String, certificateFile: String? = nil, keyFile: String? = nil) {
        self.caFile = caFile
        self.certificateFile = certificateFile
        self.keyFile = keyFile
    }
}
