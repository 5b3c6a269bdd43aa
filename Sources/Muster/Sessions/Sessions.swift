import EventLog
import Foundation

/// Logins with a password, and the bearer tokens they give (the VantiqUI "Internal" server type).
///
/// Every login, failed login, refresh and logout is an event; the tokens themselves never reach the
/// log, only their SHA-256; failed logins only for users that exist. Checks read the `sessions`
/// projection inside the writer's transaction, so two concurrent refreshes cannot both rotate one
/// refresh token. Failed logins are throttled in memory (`LoginThrottle`), per name and client address.
public struct Sessions: Sendable {
    /// Lifetimes of tokens, the throttle on failed logins, and the shortest password.
    public struct Policy: Sendable, Hashable {
        /// How long an access token works (seconds).
        public var accessTokenLifetime: TimeInterval
        /// How long a refresh token works (seconds); every refresh starts a new one.
        public var refreshTokenLifetime: TimeInterval
        /// Failed logins for one user name from one client address before each further attempt
        /// from there waits; 0 or less: no such limit. Other addresses are not affected.
        public var failedLoginsPerName: Int
        /// Failed logins from one client address, over all names, before each further attempt from
        /// there waits; 0 or less: no such limit.
        public var failedLoginsPerAddress: Int
        /// The first wait once a limit is reached (seconds); it doubles with each further failure.
        public var failedLoginDelay: TimeInterval
        /// The longest wait (seconds).
        public var maximumFailedLoginDelay: TimeInterval
        /// How long after its last failure, and the end of its wait, a count is forgotten (seconds).
        /// The counts live in the server's memory only: a restart forgets them.
        public var failedLoginMemory: TimeInterval
        /// The fewest characters of a new user's password (existing users keep theirs).
        public var minimumPasswordLength: Int
        /// Whether new tokens name their namespace (`Sessions.namespace(namedBy:)`): on the nodes of a cluster, where a
        /// node serving several namespaces keeps each in a log of its own. Tokens stay opaque to clients.
        public var namesNamespaceInTokens = false

        public init(
            accessTokenLifetime: TimeInterval = 3600, refreshTokenLifetime: TimeInterval = 30 * 86_400,
            failedLoginsPerName: Int = 5, failedLoginsPerAddress: Int = 30, failedLoginDelay: TimeInterval = 1,
            maximumFailedLoginDelay: TimeInterval = 900, failedLoginMemory: TimeInterval = 3600,
            minimumPasswordLength: Int = Directory.minimumPasswordLength
        ) {
            self.accessTokenLifetime = accessTokenLifetime
            self.refreshTokenLifetime = refreshTokenLifetime
            self.failedLoginsPerName = failedLoginsPerName
            self.failedLoginsPerAddress = failedLoginsPerAddress
            self.failedLoginDelay = failedLoginDelay
            self.maximumFailedLoginDelay = maximumFailedLoginDelay
            self.failedLoginMemory = failedLoginMemory
            self.minimumPasswordLength = minimumPasswordLength
        }

        var throttleLimits: LoginThrottle.Limits {
            LoginThrottle.Limits(
                perName: failedLoginsPerName, perAddress: failedLoginsPerAddress,
                firstDelay: max(1, StoreTime.micros(failedLoginDelay)),
                maximumDelay: max(1, StoreTime.micros(maximumFailedLoginDelay)),
                memory: StoreTime.micros(failedLoginMemory))
        }
    }

    /// The namespace a token names, when it was issued with `Policy.namesNamespaceInTokens`; nil otherwise.
    public static func namespace(namedBy token: String) -> String? { SessionToken.namespace(of: token) }

    /// Whether this log knows the access token (or, with `refresh`, the refresh token) — valid, expired or revoked.
    public func knows(token: String, refresh: Bool = false) throws -> Bool {
        let hash = SessionToken.hash(token)
        return try log.read { reader in
            let sessions = try reader.sessions
            return try (refresh ? sessions.refreshToken(hash: hash) : sessions.accessToken(hash: hash)) != nil
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
        /// The name to show, when an OAuth token gave one (`preferred_username`); never used to
        /// decide who the caller is.
        public var preferredUsername: String?
    }

    let log: EventLog
    public let policy: Policy
    /// Shared by every copy of this value: one server, one memory of failed logins.
    let throttle: LoginThrottle

    public init(log: EventLog, policy: Policy = Policy()) {
        self.log = log
        self.policy = policy
        throttle = LoginThrottle(policy.throttleLimits)
    }

    /// The session id of principals that did not log in here (OAuth): all zeros.
    public static let externalSessionId = UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0))

    /// Read-only (log.read, no writer): resolves an access token.
    /// Throws `AuthenticationError.tokenRevoked`, `.tokenExpired` or `.tokenUnknown`, in that order.
    public func authenticate(accessToken: String) throws -> Principal {
        let hash = SessionToken.hash(accessToken)
        let now = log.configuration.clock()
        return try log.read { reader in
            guard let token = try reader.sessions.accessToken(hash: hash) else {
                throw AuthenticationError.tokenUnknown
            }
            if token.isRevoked { throw AuthenticationError.tokenRevoked }
            if now >= token.expiresAt { throw AuthenticationError.tokenExpired }
            guard let user = try reader.directory.user(token.user, namespace: token.namespace) else {
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
            try reader.directory.user(username, namespace: namespace).map {
                Principal(
                    username: $0.name, namespace: namespace, isAdmin: $0.isAdmin, deviceId: nil,
                    sessionId: Self.externalSessionId, expiresAt: .distantFuture)
            }
        }
    }

    /// The stream of a session's token events.
    static func stream(_ sessionId: UUID) -> String { "session/\(sessionId.uuidString)" }
}
