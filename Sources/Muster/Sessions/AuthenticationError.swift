/// Why a login, a token check, a refresh or a logout was refused. The messages never say whether a
/// user exists.
public enum AuthenticationError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Unknown user, a user without a password, or a wrong password: one answer for all.
    case invalidCredentials
    /// Too many wrong passwords for this user lately (failed logins, and current passwords not right when changing
    /// it); `retryAfter` seconds until the oldest counted failure leaves the window.
    case throttled(retryAfter: Int)
    /// The token is past its expiry. For an access token: refresh it; for a refresh token: log in again.
    case tokenExpired
    /// The token was replaced by a refresh or its session logged out.
    case tokenRevoked
    /// No session has this token.
    case tokenUnknown

    public var description: String {
        switch self {
        case .invalidCredentials: "invalid user name or password"
        case .throttled(let seconds):
            "too many wrong passwords lately (at login or for a change of one's own); try again in \(seconds) second\(seconds == 1 ? "" : "s")"
        case .tokenExpired: "the access token expired; refresh it"
        case .tokenRevoked: "the token was revoked; log in again"
        case .tokenUnknown: "the token is not known; log in again"
        }
    }
}
