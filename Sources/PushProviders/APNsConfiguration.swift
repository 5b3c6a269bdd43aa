import Foundation

/// Everything an APNs push source needs: how it authenticates, the app it pushes to, and which APNs it talks to.
public struct APNsConfiguration: Sendable {
    /// How the provider proves it may push to the app.
    public enum Authentication: Sendable {
        /// A provider token (JWT, ES256) signed with the team's `.p8` key, sent as `authorization: bearer …`.
        case token(APNsSigningKey, keyId: String, teamId: String)
        /// A TLS client certificate issued for the app (`.p12`).
        case certificate(APNsClientIdentity)
    }

    public var authentication: Authentication
    /// The app's bundle id, sent as `apns-topic`.
    public var topic: String
    /// Whether to use the development APNs (`api.sandbox.push.apple.com`) instead of production.
    public var sandbox: Bool
    /// Another server in place of Apple's, as `scheme://host:port` (a local stand-in in tests).
    public var endpoint: URL?

    /// Checks the settings: key id and team id are 10 letters or digits, the topic is not empty, the endpoint
    /// (when given) is an `https` or `http` URL with a host.
    public init(authentication: Authentication, topic: String, sandbox: Bool = false, endpoint: URL? = nil) throws {
        if case .token(_, let keyId, let teamId) = authentication {
            try Self.checkIdentifier(keyId, argument: "--key-id", what: "key id")
            try Self.checkIdentifier(teamId, argument: "--team-id", what: "team id")
        }
        guard !topic.trimmingCharacters(in: .whitespaces).isEmpty else {
            throw PushConfigurationError("--topic", "expected the app's bundle id, e.g. com.example.muster")
        }
        if let endpoint {
            guard let scheme = endpoint.scheme?.lowercased(), scheme == "https" || scheme == "http",
                endpoint.host?.isEmpty == false
            else {
                throw PushConfigurationError(
                    "--endpoint", "expected scheme://host:port, e.g. https://127.0.0.1:8443, not \(endpoint)")
            }
        }
        self.authentication = authentication
        self.topic = topic
        self.sandbox = sandbox
        self.endpoint = endpoint
    }

    /// `scheme://host:port` of the APNs the pushes go to.
    public var origin: String {
        if let endpoint, let scheme = endpoint.scheme, let host = endpoint.host {
            let port = endpoint.port.map { ":\($0)" } ?? ""
            let bracketed = host.contains(":") ? "[\(host)]" : host
            return "\(scheme)://\(bracketed)\(port)"
        }
        return sandbox ? "https://api.sandbox.push.apple.com:443" : "https://api.push.apple.com:443"
    }

    private static func checkIdentifier(_ value: String, argument: String, what: String) throws {
        let alphanumeric = value.unicodeScalars.allSatisfy {
            ("A"..."Z").contains($0) || ("a"..."z").contains($0) || ("0"..."9").contains($0)
        }
        guard value.unicodeScalars.count == 10, alphanumeric else {
            throw PushConfigurationError(
                argument, "expected the 10-character \(what) Apple's developer account shows, not \"\(value)\"")
        }
    }
}
