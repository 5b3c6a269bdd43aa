/// The body of `POST /auth/token`: a password login.
public struct LoginBody: Sendable, Hashable, Codable {
    public var username: String
    public var password: String
    /// The namespace to log in to; nil for the server's.
    public var namespace: String?
    /// The device logging in, when the session should be tied to one.
    public var deviceId: String?

    /// Creates a login from its parts.
    public init(username: String, password: String, namespace: String? = nil, deviceId: String? = nil) {
        self.username = username
        self.password = password
        self.namespace = namespace
        self.deviceId = deviceId
    }
}
