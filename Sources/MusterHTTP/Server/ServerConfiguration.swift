import EventLog
import Foundation
import HTTPTypes
import MQTTBridge
import Muster
import PushDelivery
import PushProviders
import Replication

/// How `muster serve` runs: where it listens, how callers authenticate, and its limits.
public struct ServerConfiguration: Sendable {
    public enum Authentication: Sendable {
        /// Users log in with a password; Muster issues the tokens.
        case `internal`
        /// Callers bring JWTs of an OpenID Connect issuer; Muster checks them.
        case oauth(OIDCVerifier.Configuration)
    }

    public var host = "127.0.0.1"
    public var port = 8080
    /// HTTPS with this certificate and key (HTTP/2 over ALPN, HTTP/1.1 too); nil: plain HTTP/1.1.
    public var tls: ServerTLS?
    public var authentication = Authentication.internal
    /// The namespace of logins that name none, of open registration and of OAuth users.
    public var namespace = Names.defaultNamespace
    /// Whether anyone may create an internal user (createInternalUser); otherwise administrators only.
    public var openRegistration = false
    public var sessionPolicy = Sessions.Policy()
    /// The header a reverse proxy in front of the server sets to the client's address (such as
    /// `X-Real-IP`); nil: the connected peer's address. Set it only behind such a proxy: anyone who
    /// reaches the server directly could otherwise name any address. The login throttle and the
    /// rate limit count per client address.
    public var clientAddressHeader: HTTPField.Name?
    /// The cluster's key (`serve --cluster`): a replica signs with it the client's address of a request it forwards,
    /// and the primary counts a request whose signature it verifies by that address.
    public var forwardingKey: ForwardingKey?
    /// Most bytes of an uploaded document (`--max-document-size`); read as it streams in, 413 beyond.
    public var documentLimit = 64 << 20
    /// Most bytes of a JSON request body (`--max-body`); 413 beyond, before the route sees any of it.
    public var bodyLimit = Self.defaultBodyLimit
    /// 1 MiB: far above any JSON the API takes (a payload, an area import), far below what would hurt.
    public static let defaultBodyLimit = 1 << 20
    /// Requests per second per caller (bearer token, else address), on average; `burst` at once.
    public var rateLimit: Double = 1000
    public var burst: Double = 2000
    /// How often a quiet live stream sends a keep-alive comment.
    public var keepAlive: Duration = .seconds(15)
    /// How long a connection may stay idle between requests before the server closes it.
    public var idleTimeout: Duration = .seconds(75)
    /// How long a request may take to send its headers, from its first byte.
    public var headerTimeout: Duration = .seconds(10)
    /// How long a request's body may pause between two parts.
    public var bodyTimeout: Duration = .seconds(30)
    /// Most connections open at once; one more is answered 503 and closed.
    public var maxConnections = 4096
    /// How push providers are reached: extra trusted certificate authorities (`--push-ca-file`), timeout, pool.
    public var pushConnections = ProviderConnectionOptions()
    /// The MQTT bridge's broker and limits (`serve --mqtt`); nil: no bridge, MQTT devices' deliveries wait.
    public var mqtt: MQTTBridgeOptions?
    /// How the delivery service sends the outbox; nil: it does not run (`--no-push`).
    public var delivery: DeliveryService.Options? = DeliveryService.Options()
    /// How the web app at `/` is served.
    public var webApp = WebAppOptions()

    public init() {}
}
