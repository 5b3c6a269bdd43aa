import Foundation

/// A bearer credential kept until its renewal time and renewed one at a time: the APNs provider token (re-signed
/// after 50 minutes) and the FCM access token (fetched again 5 minutes before it expires).
///
/// Sends that find no valid token while a renewal runs wait for that renewal instead of starting their own.
actor BearerTokenCache {
    /// A token and the moment it should no longer be handed out.
    struct Token: Sendable {
        var value: String
        var renewAt: Date
    }

    private let now: @Sendable () -> Date
    private let renew: @Sendable () async throws -> Token
    private var current: Token?
    private var renewal: Task<Token, any Error>?

    /// - Parameters:
    ///   - now: The clock that decides whether the current token is still good.
    ///   - renew: Makes a new token (signs one, or asks a token endpoint); its error reaches every waiting send.
    init(now: @escaping @Sendable () -> Date, renew: @escaping @Sendable () async throws -> Token) {
        self.now = now
        self.renew = renew
    }

    /// The current token, renewed first when there is none or its time is up.
    func token() async throws -> String {
        if let current, now() < current.renewAt { return current.value }
        if let renewal { return try await renewal.value.value }
        let task = Task { try await renew() }
        renewal = task
        defer { renewal = nil }
        let token = try await task.value
        current = token
        return token.value
    }

    /// Forgets `value` if it is still the current token (the provider refused it), so the next send renews.
    func drop(_ value: String) {
        if current?.value == value { current = nil }
    }
}
