/// The seed's session information: what the client knows about the server and the login after an operation.
///
/// `serverType`, `verifyAuthToken`, `authWithInternal`, `authWithOAuth`, `ensureValidToken` and `logout`
/// return one; ``MusterClient/session`` is always the latest. Not every key is known after every operation:
/// an unknown one is nil, as the seed's dictionary leaves it out.
public struct MusterSession: Sendable, Hashable {
    /// The server's authentication: `Internal` or `OAuth`; nil until the server said so.
    public var serverType: ServerType?
    /// Whether the access token the client holds is valid (as of the last check).
    public var authValid: Bool
    /// The username of the authenticated user.
    public var username: String?
    /// The user's preferred username; the same as `username` on an Internal server.
    public var preferredUsername: String?
    /// What went wrong in the last operation; `""` when nothing did.
    public var errorStr: String
    /// The HTTP status of the last operation's request; nil when none was answered (or none was needed).
    public var statusCode: Int?
    /// The error behind `errorStr`, with its code and field errors; nil when nothing went wrong.
    public var error: MusterClientError?

    /// Creates a session from its keys.
    public init(
        serverType: ServerType? = nil, authValid: Bool = false, username: String? = nil,
        preferredUsername: String? = nil, errorStr: String = "", statusCode: Int? = nil,
        error: MusterClientError? = nil
    ) {
        self.serverType = serverType
        self.authValid = authValid
        self.username = username
        self.preferredUsername = preferredUsername
        self.errorStr = errorStr
        self.statusCode = statusCode
        self.error = error
    }

    /// Whether the last operation succeeded: `errorStr` is empty.
    public var succeeded: Bool { errorStr.isEmpty }

    /// Records a successful answer of status `statusCode` (nil when no request was needed).
    mutating func recordSuccess(statusCode: Int?) {
        self.statusCode = statusCode
        errorStr = ""
        error = nil
    }

    /// Records a failure; an error that means "log in again" also makes the session invalid.
    mutating func recordFailure(_ failure: MusterClientError) {
        statusCode = failure.statusCode
        errorStr = failure.message
        error = failure
        if failure.requiresLogin { authValid = false }
    }
}
