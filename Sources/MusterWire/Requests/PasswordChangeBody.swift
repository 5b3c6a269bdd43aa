/// The body of `PUT /api/v1/users/{name}/password`: the new password, and the current one when it is the caller's
/// own.
public struct PasswordChangeBody: Sendable, Hashable, Codable {
    /// The new password.
    public var password: String
    /// The caller's current password: required to change one's own, not read for another user's.
    public var currentPassword: String?

    /// Creates a body from its parts.
    public init(password: String, currentPassword: String? = nil) {
        self.password = password
        self.currentPassword = currentPassword
    }
}
