/// Where a ``MusterClient`` keeps its tokens between launches: memory, a file, the Keychain.
///
/// The client loads once when it is created, saves after every login and refresh, and clears on logout and
/// when the server says the tokens are dead. Calls are few and short, so they are synchronous.
public protocol TokenStore: Sendable {
    /// The saved tokens, or nil when there are none.
    func load() throws -> AuthTokens?
    /// Replaces the saved tokens.
    func save(_ tokens: AuthTokens) throws
    /// Forgets the saved tokens; succeeds when there were none.
    func clear() throws
}
