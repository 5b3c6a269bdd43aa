/// What `GET /auth/verify` says about the bearer token.
public struct Verification: Sendable, Hashable, Codable {
    /// Whether the token is valid (the server answers 401 rather than false).
    public var authValid: Bool
    public var username: String?
    public var preferredUsername: String?
    public var serverType: ServerType?

    /// Creates the answer from its parts.
    public init(authValid: Bool, username: String?, preferredUsername: String?, serverType: ServerType?) {
        self.authValid = authValid
        self.username = username
        self.preferredUsername = preferredUsername
        self.serverType = serverType
    }
}
