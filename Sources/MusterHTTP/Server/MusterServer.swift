import EventLog
import Foundation
import Hummingbird
import HummingbirdCore
import HummingbirdHTTP2
import Logging
import MQTTBridge
import Muster
import NIOCore
import NIOSSL
import PushDelivery
import Replication
import ServiceLifecycle

/// The HTTP server on one event log: the routes of `/api/v1`, as a service of a service group, so a
/// SIGTERM lets requests in flight finish and the writer commit before the process ends.
public struct MusterServer: Sendable {
    let api: API
    let logger: Logger
    /// The connections open now, against `configuration.maxConnections`.
    let connections = ConnectionGuard.Count()
    /// The TLS settings read from `configuration.tls` by `make`; nil: plain HTTP.
    let tls: TLSConfiguration?
    /// This node's part in a cluster (`serve --cluster`); nil for a server of its own.
    let cluster: ReplicatedNamespace?

    /// - Parameters:
    ///   - verifier: the OAuth verifier, built from `configuration.authentication` by `make`.
    ///   - tls: the TLS settings, read from `configuration.tls` by `make`.
    init(
        log: EventLog, configuration: ServerConfiguration, verifier: OIDCVerifier?, metrics: ServerMetrics,
        logger: Logger, tls: TLSConfiguration? = nil, cluster: ReplicatedNamespace? = nil
    ) {
        let mode: Authenticator.Mode = verifier.map { .oauth($0) } ?? .internal
        let authenticator = Authenticator(
            mode: mode, sessions: Sessions(log: log, policy: configuration.sessionPolicy),
            oauthNamespace: configuration.namespace, logger: logger)
        let rules = RuleEngine(log: log)
        api = API(
            log: log, configuration: configuration, authenticator: authenticator, metrics: metrics, rules: rules,
            mqtt: configuration.mqtt.map { MQTTBridge(log: log, options: $0, rules: rules, logger: logger) })
        self.logger = logger
        self.tls = tls
        self.cluster = cluster
    }

    /// A server for `log`; reads the OIDC issuer's keys when the configuration asks for OAuth, and the TLS
    /// certificate and key when it names them (throwing `ServerTLSError`). With `cluster`, a node of a cluster: writes
    /// on a replica go to the primary, and the rule timers, push delivery and the MQTT bridge run only on the primary.
    public static func make(
        log: EventLog, configuration: ServerConfiguration, metrics: ServerMetrics = ServerMetrics(),
        logger: Logger = Logger(label: "muster"), cluster: ReplicatedNamespace? = nil
    ) async throws -> MusterServer {
        var verifier: OIDCVerifier?
        let tls = try configuration.tls?.configuration()
        if case .oauth(let oidc) = configuration.authentication { verifier = try await OIDCVerifier(oidc) }
        return MusterServer(
            log: log, configuration: configuration, verifier: verifier, metrics: metrics, logger: logger, tls: tls,
            cluster: cluster)
    }

    /// The router with every route and middleware, for tests without sockets.
    public func router() -> Router<MusterRequestContext> {
        let routes = Router(context: MusterRequestContext.self)
        api.addRoutes(to: routes)
        let router = Router(context: MusterRequestContext.self)
        router.add(middleware: RequestMetricsMiddleware(metrics: api.metrics))
        router.add(middleware: ErrorMiddleware(allowedMethods: AllowedMethods(routes.routes)))
        router.add(middleware: BodyLimitMiddleware(bodyLimit: api.configuration.bodyLimit))
        if let cluster {
            router.add(middleware: ForwardingMiddleware(cluster: cluster, configuration: api.configuration))
        }
        router.add(
            middleware: RateLimitMiddleware(
                limiter: RateLimiter(rate: api.configuration.rateLimit, burst: api.configuration.burst),
                configuration: api.configuration))
        router.add(middleware: AuthenticationMiddleware(authenticator: api.authenticator))
        api.addRoutes(to: router)
        return router
    }

    /// The Hummingbird application (a `Service`) listening on the configured address.
    public func application(onServerRunning: @escaping @Sendable (Int) async -> Void = { _ in })
        -> some ApplicationProtocol & Service
    {
        application(responder: router().buildResponder(), onServerRunning: onServerRunning)
    }

    /// The application listening on the configured address with this server's limits, answering with `responder`.
    func application<Responder: HTTPResponder>(
        responder: Responder, onServerRunning: @escaping @Sendable (Int) async -> Void
    ) -> some ApplicationProtocol & Service where Responder.Context == MusterRequestContext {
        let configuration = api.configuration
        let limits = ConnectionGuard.Limits(
            headerTimeout: .nanoseconds(configuration.headerTimeout.nanoseconds),
            bodyTimeout: .nanoseconds(configuration.bodyTimeout.nanoseconds),
            maxConnections: configuration.maxConnections)
        let count = connections
        let idleTimeout = TimeAmount.nanoseconds(configuration.idleTimeout.nanoseconds)
        // Plain HTTP/1.1, HTTP/1.1 over TLS and each HTTP/2 stream: a live stream's client that leaves ends it.
        let http1 = HTTP1Channel.Configuration(
            additionalChannelHandlers: [LiveStreamHangUp()], idleTimeout: idleTimeout)
        let server: HTTPServerBuilder
        if let tls {
            let http2 = HTTP2ChannelConfiguration(idleTimeout: configuration.idleTimeout, streamConfiguration: http1)
            server = HTTPServerBuilder { responder in
                GuardedChannel(
                    base: try HTTP2UpgradeChannel(tlsConfiguration: tls, configuration: http2, responder: responder),
                    limits: limits, count: count, guardsRequests: false)
            }
        } else {
            server = HTTPServerBuilder { responder in
                GuardedChannel(
                    base: HTTP1Channel(responder: responder, configuration: http1), limits: limits, count: count,
                    guardsRequests: true)
            }
        }
        return Application(
            responder: responder,
            server: server,
            configuration: .init(
                address: .hostname(api.configuration.host, port: api.configuration.port), serverName: "Muster"),
            onServerRunning: { channel in await onServerRunning(channel.localAddress?.port ?? 0) },
            logger: logger)
    }

    /// Serves until SIGTERM or SIGINT, then shuts down gracefully, in reverse order of start: the
    /// listener closes and requests in flight finish, live streams end, async projections stop at a
    /// checkpoint, and last the writer commits what is queued and the log closes.
    public func run(onServerRunning: @escaping @Sendable (Int) async -> Void = { _ in }) async throws {
        try await Self.run(
            services() + [.init(service: application(onServerRunning: onServerRunning))], logger: logger)
    }

    /// Runs `services` until SIGTERM or SIGINT, then stops them in reverse order.
    static func run(_ services: [ServiceGroupConfiguration.ServiceConfiguration], logger: Logger) async throws {
        let group = ServiceGroup(
            configuration: .init(services: services, gracefulShutdownSignals: [.sigterm, .sigint], logger: logger))
        try await group.run()
    }

    /// Everything the server runs but its listener: the log, the async projections, the node's part in a cluster,
    /// the rule timers, the MQTT bridge and push delivery.
    func services() -> [ServiceGroupConfiguration.ServiceConfiguration] {
        var services: [ServiceGroupConfiguration.ServiceConfiguration] = [
            .init(service: EventLogService(log: api.log)),
            .init(service: StoreFailureService(log: api.log), failureTerminationBehavior: .gracefullyShutdownGroup),
            .init(service: AsyncProjectionService(log: api.log, logger: logger)),
        ]
        if let cluster {
            // A namespace fenced out stops the server as a SIGTERM would: requests finish, the log closes.
            services.append(
                .init(
                    service: ClusterService(cluster: cluster, logger: logger),
                    failureTerminationBehavior: .gracefullyShutdownGroup))
        }
        let (api, logger) = (api, logger)
        primaryOnly("the rule timers", &services) { RuleTimerService(engine: api.rules, logger: logger) }
        if let bridge = api.mqtt { primaryOnly("the MQTT bridge", &services) { bridge } }
        if let options = api.configuration.delivery {
            let connections = api.configuration.pushConnections
            primaryOnly("push delivery", &services) {
                DeliveryService(
                    log: api.log,
                    factory: { try await PushSourceSetup.provider(for: $0, secret: $1, options: connections) },
                    options: options, metrics: api.metrics.factory, logger: logger, mqtt: api.mqtt?.publisher)
            }
        }
        return services
    }
}

extension MusterServer {
    /// Adds `service` as it is to a server of its own; to a cluster's node, runs it while the node is the primary.
    private func primaryOnly(
        _ name: String, _ services: inout [ServiceGroupConfiguration.ServiceConfiguration],
        _ make: @escaping @Sendable () -> any Service
    ) {
        if let cluster {
            services.append(.init(service: WhilePrimary(cluster: cluster, name: name, logger: logger, make: make)))
        } else {
            services.append(.init(service: make()))
        }
    }
}

/// The log and its writer: closed — queued commands committed first — once everything started after
/// it has shut down.
struct EventLogService: Service {
    let log: EventLog

    func run() async throws {
        try? await gracefulShutdown()
        log.close()
    }
}

/// Stops the server when LMDB marks its store failed: every read and write would fail from then on, and only opening
/// the data directory again recovers it. Thrown, the failure shuts the server down gracefully — requests in flight
/// are answered, the log closes last — and the server exits with it, for its supervisor to start it again
/// (`Restart=on-failure` in the Debian unit).
struct StoreFailureService: Service {
    let log: EventLog

    func run() async throws {
        if let failure = await cancelWhenGracefulShutdown({ await log.failure() }) { throw failure }
    }
}

/// Keeps the async projections current while the server runs. A failed catch-up (a full disk, the map at its
/// limit) is logged and tried again with growing pauses: thrown, it would end the service group — the whole server
/// would stop listening because a statistics table could not be written.
struct AsyncProjectionService: Service {
    let log: EventLog
    let logger: Logger
    /// The first pause after a failure; it doubles up to `longestPause`.
    var firstPause: Duration = .seconds(1)
    var longestPause: Duration = .seconds(60)

    func run() async throws {
        await cancelWhenGracefulShutdown {
            var pause = firstPause
            while !Task.isCancelled {
                do {
                    try await log.runAsyncProjections()
                    return
                } catch is CancellationError {
                    return  // stopped by the shutdown
                } catch let error as StoreError where error.code == .cancelled || error.code == .closed {
                    return  // stopped by the shutdown
                } catch {
                    logger.error(
                        "async projections could not catch up; trying again",
                        metadata: ["error": "\(error)", "retry in": "\(pause)"])
                    try? await Task.sleep(for: pause)
                    pause = min(pause * 2, longestPause)
                }
            }
        }
    }
}
