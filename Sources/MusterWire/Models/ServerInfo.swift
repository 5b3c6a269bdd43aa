/// What `GET /api/v1/server` says about the server.
public struct ServerInfo: Sendable, Hashable, Codable {
    /// How the server authenticates users.
    public var serverType: ServerType
    /// The server's version, e.g. `0.1.0`.
    public var version: String?

    /// Creates the answer from its parts.
    public init(serverType: ServerType, version: String?) {
        self.serverType = serverType
        self.version = version
    }
}
