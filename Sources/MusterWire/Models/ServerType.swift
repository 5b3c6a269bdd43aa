/// How a server authenticates its users: its own usernames and passwords, or an OAuth provider's JWTs.
public enum ServerType: String, Sendable, Hashable, Codable {
    /// Username and password (`authWithInternal`); the server issues the access and refresh tokens.
    case `internal` = "Internal"
    /// An OAuth / OpenID Connect provider issues a JWT that the client sends as its bearer token (`authWithOAuth`).
    case oauth = "OAuth"
}
