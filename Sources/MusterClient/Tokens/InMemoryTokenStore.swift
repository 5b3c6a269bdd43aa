import Synchronization

/// Keeps tokens in memory only: a login lasts as long as the process.
public final class InMemoryTokenStore: TokenStore {
    private let tokens: Mutex<AuthTokens?>

    /// A store holding `tokens`, empty by default.
    public init(_ tokens: AuthTokens? = nil) {
        self.tokens = Mutex(tokens)
    }

    /// The tokens held, if any.
    public func load() -> AuthTokens? {
        tokens.withLock { $0 }
    }

    /// Holds `tokens` instead of the previous ones.
    public func save(_ tokens: AuthTokens) {
        self.tokens.withLock { $0 = tokens }
    }

    /// Forgets the tokens.
    public func clear() {
        tokens.withLock { $0 = nil }
    }
}
