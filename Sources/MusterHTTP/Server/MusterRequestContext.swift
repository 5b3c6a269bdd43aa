import Hummingbird
import Muster
import NIOCore
import Synchronization

/// What a request carries through the middleware to its route: Hummingbird's core context and,
/// once the bearer token is checked, who is calling.
public struct MusterRequestContext: RemoteAddressRequestContext {
    public var coreContext: CoreRequestContextStorage
    /// The caller, when the request had a valid bearer token.
    public var principal: Sessions.Principal?
    /// The bearer token `principal` was found by; a live stream checks it again before every frame.
    var bearerToken: String?
    /// The caller's name, shared by every copy of this context down the middleware chain: the error middleware,
    /// outside the authentication, logs who was refused.
    let callerName = CallerName()
    /// The connected peer.
    public let remoteAddress: SocketAddress?
    /// Completes when the request's connection (or HTTP/2 stream) closes: a live stream ends then.
    let connectionClosed: EventLoopFuture<Void>

    /// Request bodies are read as the wire's JSON.
    public var requestDecoder: MusterRequestDecoder { .init() }
    /// Answers are written as the wire's JSON.
    public var responseEncoder: MusterResponseEncoder { .init() }
    /// Most bytes of a JSON request body (uploaded documents have their own limit): the server's
    /// `bodyLimit`, set by `BodyLimitMiddleware`.
    public var maxUploadSize: Int { bodyLimit }
    /// The server's `ServerConfiguration.bodyLimit`; 1 MiB until the middleware sets it.
    var bodyLimit = ServerConfiguration.defaultBodyLimit

    public init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        principal = nil
        bearerToken = nil
        remoteAddress = source.channel.remoteAddress
        connectionClosed = source.channel.closeFuture
    }

    /// The caller; throws 401 when the request had no bearer token.
    func caller() throws -> Sessions.Principal {
        guard let principal else {
            throw APIError(
                .unauthorized, "unauthenticated",
                "this route needs a bearer token: log in (POST /api/v1/auth/token) and send Authorization: Bearer <accessToken>"
            )
        }
        return principal
    }

    /// The caller, who must be an administrator of their namespace; throws 401 or 403.
    func administrator() throws -> Sessions.Principal {
        let principal = try caller()
        guard principal.isAdmin else {
            throw APIError(
                .forbidden, "forbidden", "only an administrator of namespace \(principal.namespace) may do this")
        }
        return principal
    }
}

/// Who a request's bearer token named, once the authentication middleware found out; "-" before.
final class CallerName: Sendable {
    private let name = Mutex<String?>(nil)

    var value: String {
        get { name.withLock { $0 } ?? "-" }
        set { name.withLock { $0 = newValue } }
    }
}
