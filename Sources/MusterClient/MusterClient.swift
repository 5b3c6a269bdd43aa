import Foundation
@_exported import MusterWire
import Synchronization

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The Swift client of a Muster server: the operations of the seed's VantiqUI class, over the HTTP API.
///
/// One client per server and user. It keeps the login's tokens in a ``TokenStore``, refreshes the access
/// token before it expires (and once more when the server says it did), and keeps the seed's session
/// information in ``session``.
///
/// Two kinds of operation:
/// - the session operations of the seed — ``serverType()``, ``verifyAuthToken()``,
///   ``authWithInternal(username:password:deviceId:)``, ``authWithOAuth(urlScheme:clientId:browser:)``,
///   ``authWithOAuth(token:)``, ``ensureValidToken()``, ``logout()`` — return a ``MusterSession`` and never throw: a failure is `errorStr` and `statusCode`, and
///   `authValid` says whether the app must log in (again);
/// - the data operations (``inbox()``, ``respond(messageId:deviceId:deviceName:submitValue:values:location:)``,
///   …) return their result or throw a ``MusterClientError`` with the status, the server's code, its message
///   (`errorStr`) and field errors. They update ``session`` too.
///
/// ```swift
/// let client = MusterClient(serverURL: URL(string: "https://muster.example.com")!, tokenStore: store)
/// if await !client.ensureValidToken().authValid {
///     let session = await client.authWithInternal(username: "anna", password: password)
///     guard session.authValid else { return show(session.errorStr) }
/// }
/// for item in try await client.inbox() { … }
/// ```
public final class MusterClient: Sendable {
    /// The server, e.g. `https://muster.example.com`; routes are under its `/api/v1`.
    public let serverURL: URL
    /// The namespace to log in to; nil for the server's default.
    public let namespace: String?

    let tokenStore: any TokenStore
    let urlSession: URLSession
    let now: @Sendable () -> Date
    let state: Mutex<State>

    /// How long before its expiry an access token is refreshed.
    static let refreshLeeway: Duration = .seconds(30)

    struct State {
        var tokens: AuthTokens?
        var session: MusterSession
        /// The refresh in flight, shared by every request that needs it (the server revokes the old pair).
        var refresh: Task<AuthTokens, any Error>?
    }

    /// A client of the server at `serverURL`.
    ///
    /// - Parameters:
    ///   - serverURL: the server, e.g. `https://muster.example.com`.
    ///   - namespace: the namespace to log in to; nil for the server's default.
    ///   - tokenStore: where the login's tokens are kept; a saved login is loaded now, unless another server
    ///     issued it (``AuthTokens/server``).
    ///   - urlSession: the session requests go through; live streams copy its configuration.
    ///   - now: the clock token expiry is judged by.
    public init(
        serverURL: URL, namespace: String? = nil, tokenStore: any TokenStore = InMemoryTokenStore(),
        urlSession: URLSession = .shared, now: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.serverURL = serverURL
        self.namespace = namespace
        self.tokenStore = tokenStore
        self.urlSession = urlSession
        self.now = now
        var session = MusterSession()
        var tokens: AuthTokens?
        do {
            // Tokens another server issued are never sent here: they are left in the store, unused.
            tokens = try tokenStore.load().flatMap { $0.belong(to: serverURL) ? $0 : nil }
        } catch {
            session.recordFailure(Self.storageFailure(error))
        }
        session.serverType = tokens?.serverType
        session.username = tokens?.username
        session.preferredUsername = tokens?.preferredUsername
        state = Mutex(State(tokens: tokens, session: session))
    }

    /// The session information as of the last operation: server type, whether the login is valid, the user,
    /// and the last error and HTTP status.
    public var session: MusterSession {
        state.withLock { $0.session }
    }

    /// The tokens of the current login, if any.
    public var tokens: AuthTokens? {
        state.withLock { $0.tokens }
    }

    /// Changes the session and returns the result.
    @discardableResult
    func updateSession(_ change: (inout MusterSession) -> Void) -> MusterSession {
        state.withLock { state in
            change(&state.session)
            return state.session
        }
    }

    static func storageFailure(_ error: any Error) -> MusterClientError {
        if let error = error as? MusterClientError { return error }
        return MusterClientError(code: .tokenStorage, message: "the token store failed: \(error)")
    }
}

/// The answer to a location report; its name until 0.2.0.
@available(*, deprecated, renamed: "LocationAnswer")
public typealias LocationReport = LocationAnswer
