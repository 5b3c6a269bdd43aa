/// What `GET /api/v1/server` says about the server.
struct ServerInfo: Sendable, Hashable, Codable {
    /// How the server authenticates users.
    var serverType: ServerType
    /// The server's version, e.g. `0.1.0`.
    var version: String?
}
