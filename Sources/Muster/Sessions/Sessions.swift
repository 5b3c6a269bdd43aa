import EventLog
import Foundation

/// Logins with a password, and the bearer tokens they give (the VantiqUI "Internal" server type).
///
/// Every login, failed login, refresh and logout is an event; the tokens themselves never reach the
/// log, only their SHA-256. Checks read the `sessions` projection inside the writer's transaction,
/// so two concurrent attempts cannot both take the last try before the throttle, nor both rotate
/// one refresh token.
public struct Sessions: Sendable {
    /// Lifetimes of tokens and the throttle on failed logins.
    public struct Policy: Sendable, Hashable {
        /// How long an access token works (seconds).
        public var accessTokenLifetime: TimeInterval
        /// How long a refresh token works (seconds); every refresh starts a new one.
        public var refreshTokenLifetime: TimeInterval
        /// Failed logins for one user within `failedLoginWindow` after which logins are refused
        /// unchecked; 0 or less: never. At most `SessionsProjection.failedLoginsKept` count.
        public var failedLoginLimit: Int
        /// How far back failed logins count (seconds).
        public var failedLoginWindow: TimeInterval

        public init(
            accessTokenLifetime: TimeInterval = 3600, refreshTokenLifetime: TimeInterval = 30 * 86_400,
            failedLoginLimit: Int = 5, failedLoginWindow: TimeInterval = 900
        ) {
            self.accessTokenLifetime = accessTokenLifetime
            self.refreshTokenLifetime = refreshTokenLifetime
            self.failedLoginLimit = failedLoginLimit
            self.failedLoginWindow = failedLoginWindow
        }
    }

    /// What a login or refresh hands the client (the shape of `POST /auth/token`).
    public struct Tokens: Sendable, Hashable, Codable {
        public var accessToken: String
        public var refreshToken: String
        /// When the access token expires.
        public var expiresAt: Date
        public var username: String
        /// The same as `username` for Internal authentication.
        public var preferredUsername: String

        public init(
            accessToken: String, refreshToken: String, expiresAt: Date, username: String, preferredUsername: String
        ) {
            self.accessToken = accessToken
            self.refreshToken = refreshToken
            self.expiresAt = expiresAt
            self.username = username
            self.preferredUsername = preferredUsername
        }
    }

    /// Who a request comes from.
    public struct Principal: Sendable, Hashable {
        public var username: String
        public var namespace: String
        /// From the user's directory record.
        public var isAdmin: Bool
        /// The device named at login, if any.
        public var deviceId: String?
        public var sessionId: UUID
        /// When the access token expires (`.distantFuture` for an externally verified user).
        public var expiresAt: Date

        public init(
            username: String, namespace: String, isAdmin: Bool, deviceId: String?, sessionId: UUID, expiresAt: Date
        ) {
            self.username = username
            self.namespace = namespace
            self.isAdmin = isAdmin
            self.deviceId = deviceId
            self.sessionId = sessionId
            self.expiresAt = expiresAt
        }
    }

    let log: EventLog
    public let policy: Policy

    public init(log: EventLog, policy: Policy = Policy()) {
        self.log = log
        self.policy = policy
    }

    /// The session id of principals that did not log in here (OAuth): all zeros.
    public static let externalSessionId = UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0))

    /// Read-only (log.read, no writer): resolves an access token.
    /// Throws `AuthenticationError.tokenRevoked`, `.tokenExpired` or `.tokenUnknown`, in that order.
    public func authenticate(accessToken: String) throws -> Principal {
        let hash = SessionToken.hash(accessToken)
        let now = log.configuration.clock()
        return try log.read { reader in
            let state = try reader.projection(SessionsProjection.name)
            guard let token = try SessionsProjection.token(state, "accessTokens", hash: hash) else {
                throw AuthenticationError.tokenUnknown
            }
            if token.isRevoked { throw AuthenticationError.tokenRevoked }
            if now >= token.expiresAt { throw AuthenticationError.tokenExpired }
            let directory = try reader.projection(DirectoryProjection.name)
            guard let user = try Directory.user(token.user, token.namespace, directory) else {
                throw AuthenticationError.tokenUnknown
            }
            return Principal(
                username: user.name, namespace: token.namespace, isAdmin: user.isAdmin, deviceId: token.deviceId,
                sessionId: token.sessionId, expiresAt: StoreTime.date(token.expiresAt))
        }
    }

    /// For OAuth servers: the principal of an externally verified user, or nil when the directory
    /// has no such user. Records nothing; the session id is `externalSessionId`.
    public func principal(username: String, namespace: String) throws -> Principal? {
        try log.read { reader in
            try Directory.user(username, namespace, reader.projection(DirectoryProjection.name)).map {
                Principal(
                    username: $0.name, namespace: namespace, isAdmin: $0.isAdmin, deviceId: nil,
                    sessionId: Self.externalSessionId, expiresAt: .distantFuture)
            }
        }
    }

    /// The stream of a session's token events.
    static func stream(_ sessionId: UUID) -> String { "session/\(sessionId.uuidString)" }
}
