/// What `GET /auth/verify` says about the bearer token.
public struct Verification: Sendable, Hashable, Codable {
    /// Whether the token is valid (the server answers 401 rather than false).
    public var authValid: Bool
    public var username: String?
    public var preferredUsername: String?
    public var serverType: ServerType?
    /// Whether the caller administers their namespace (the web app shows the operator's console then).
    public var isAdmin: Bool?
    /// The caller's namespace.
    public var namespace: String?

    /// Creates the answer from its parts.
    public init(
        authValid: Bool, username: String?, preferredUsername: String?, serverType: ServerType?, isAdmin: Bool? = nil,
        namespace: String? = nil
    ) {
        self.authValid = authValid
        self.username = username
        self.preferredUsername = preferredUsername
        self.serverType = serverType
        self.isAdmin = isAdmin
        self.namespace = namespace
    }
}
