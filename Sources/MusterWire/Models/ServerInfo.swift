/// What `GET /api/v1/server` says about the server.
public struct ServerInfo: Sendable, Hashable, Codable {
    /// How the server authenticates users.
    public var serverType: ServerType
    /// The server's version, e.g. `0.1.0`.
    public var version: String?
    /// The format of the data directory this release writes (`muster status` shows a directory's).
    public var storeFormat: Int?

    /// Creates the answer from its parts.
    public init(serverType: ServerType, version: String?, storeFormat: Int? = nil) {
        self.serverType = serverType
        self.version = version
        self.storeFormat = storeFormat
    }
}
