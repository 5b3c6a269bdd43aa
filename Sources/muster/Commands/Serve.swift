import ArgumentParser
import EventLog
import Foundation
import HTTPTypes
import Logging
import Metrics
import MusterHTTP
import NATS
import Prometheus
import PushProviders
import Replication

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// `muster serve`: the HTTP API on the data directory, until SIGINT/SIGTERM.
struct Serve: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Serve the HTTP API (/api/v1) on the data directory until SIGINT/SIGTERM.",
        discussion: """
            Internal authentication (the default): users log in with POST /api/v1/auth/token; the first \
            administrator is made with `muster users add NAME --admin --password-stdin`. \
            OAuth: --auth oauth --oidc-issuer URL --oidc-audience AUD --jwks FILE_OR_URL; bearer JWTs are \
            checked against the issuer's keys; the user is the one of --namespace named by the token's sub.
            """)

    enum AuthMode: String, ExpressibleByArgument, CaseIterable {
        case `internal`, oauth
    }

    @OptionGroup var data: DataOptions
    @Option(help: "Port for the HTTP API (0: any free port, printed at start).") var port: Int = 8080
    @Option(help: "Address to listen on.") var host: String = "127.0.0.1"
    @Option(help: "PEM certificate (chain) to serve HTTPS with (HTTP/2 over ALPN, HTTP/1.1 too); needs --tls-key.")
    var tlsCert: String?
    @Option(help: "PEM private key of --tls-cert; must be readable by its owner only (chmod 600).")
    var tlsKey: String?
    @Option(help: "How callers authenticate: internal or oauth.") var auth: AuthMode = .internal
    @Option(help: "OAuth: the issuer (iss) tokens must name.") var oidcIssuer: String?
    @Option(help: "OAuth: the audience (aud) tokens must include.") var oidcAudience: String?
    @Option(help: "OAuth: the issuer's JWKS, a file path or an http(s) URL.") var jwks: String?
    @Option(help: "OAuth: the client id the web app signs in with at the issuer (default: --oidc-audience).")
    var oidcClientId: String?
    @Option(help: "Namespace for logins naming none, open registration and OAuth users.") var namespace = "default"
    @Flag(help: "Let anyone create an internal user (POST /api/v1/users); otherwise administrators only.")
    var openRegistration = false
    @Option(help: "Requests per second per caller before 429.") var rateLimit: Double = 1000
    @Option(help: "Access token lifetime in seconds.") var accessTokenLifetime: Double = 3600
    @Option(
        help: """
            Refresh token lifetime in seconds (at least the access token's); a token pair is forgotten once its \
            refresh token expired.
            """)
    var refreshTokenLifetime: Double = 30 * 86_400
    @Option(
        help: """
            Seconds between keep-alive comments on a quiet live stream (text/event-stream); a client that went away \
            is noticed at the next one.
            """)
    var streamKeepAlive: Double = 15
    @Option(help: "Seconds a client waits after too many failed logins; doubles with each further failure.")
    var failedLoginDelay: Double = 1
    @Option(help: "Seconds a request may take to send its headers, from its first byte (then 408).")
    var headerTimeout: Double = 10
    @Option(help: "Seconds a request's body may pause between two parts (then 408).") var bodyTimeout: Double = 30
    @Option(help: "Seconds a connection may stay idle between requests before it is closed.")
    var idleTimeout: Double = 75
    @Option(help: "Most connections open at once; one more is answered 503 and closed.") var maxConnections = 4096
    @Option(help: "Most bytes of a JSON request body (then 413).") var maxBody = 1 << 20
    @Option(help: "Most bytes of an uploaded document, counted as it streams in (then 413).")
    var maxDocumentSize = 64 << 20
    @Option(help: "PEM file of certificate authorities to trust for push providers, besides the system's.")
    var pushCaFile: String?
    @Option(help: "Seconds a push provider may take to answer one push before the attempt is retried (1–300).")
    var pushTimeout: Double = 30
    @Option(help: "Seconds before the first retry of a failed push; each retry waits about twice as long.")
    var pushRetryBase: Double = 1
    @Flag(help: "Do not send pushes (the outbox keeps growing; another server may send it).") var noPush = false
    @OptionGroup var mqtt: ServeMQTTOptions
    @OptionGroup var cluster: ServeClusterOptions
    @OptionGroup var logging: ServeLogOptions
    @Option(
        help: """
            Behind a reverse proxy: the header it sets to the client's address (e.g. X-Real-IP), which the login \
            throttle and the rate limit then count by. Only behind such a proxy: a direct caller could name any address.
            """)
    var clientAddressHeader: String?
    @Option(
        help: """
            The web app's map tiles, a URL template with {z}, {x} and {y} ("" for none: maps draw their markers \
            and circles on a plain background).
            """)
    var mapTiles = "https://tile.openstreetmap.org/{z}/{x}/{y}.png"
    @Option(help: "The map tiles' attribution, shown on every map.") var mapAttribution = "© OpenStreetMap contributors"
    @Option(
        help: """
            Serve the web app from this directory (its app/ files), read again on each request, instead of the copy \
            built in: for working on the app without rebuilding.
            """)
    var webDirectory: String?
    @Option(
        help: """
            Where the form's dashboard field leads (seed 000): an http(s) URL, {tab} standing for the field's \
            startTab. Without it the field says this server has no dashboard.
            """)
    var dashboardURL: String?
    @Flag(
        help: """
            Print the start as one JSON object, {"listening":"http(s)://HOST:PORT","data":DIR,"head":N}, instead of \
            the lines for people.
            """)
    var json = false

    /// What `--json` prints once the server listens.
    struct Listening: Encodable {
        /// The server's base URL.
        var listening: String
        /// The data directory.
        var data: String
        /// The log head when it started.
        var head: UInt64
    }

    func validate() throws {
        guard (0...65_535).contains(port) else { throw ValidationError("--port must be 0…65535, got \(port)") }
        if auth == .oauth && (oidcIssuer == nil || oidcAudience == nil || jwks == nil) {
            throw ValidationError("--auth oauth needs --oidc-issuer, --oidc-audience and --jwks")
        }
        if (tlsCert == nil) != (tlsKey == nil) {
            throw ValidationError("--tls-cert and --tls-key go together: give both files or neither")
        }
        guard rateLimit > 0 else { throw ValidationError("--rate-limit must be above 0") }
        guard accessTokenLifetime >= 10 else { throw ValidationError("--access-token-lifetime must be at least 10") }
        guard refreshTokenLifetime >= accessTokenLifetime else {
            throw ValidationError(
                "--refresh-token-lifetime must be at least --access-token-lifetime (\(accessTokenLifetime) s)")
        }
        guard streamKeepAlive >= 0.1, streamKeepAlive <= 3600 else {
            throw ValidationError("--stream-keep-alive must be between 0.1 and 3600 seconds, got \(streamKeepAlive)")
        }
        guard failedLoginDelay >= 1, failedLoginDelay <= 900 else {
            throw ValidationError("--failed-login-delay must be between 1 and 900 seconds")
        }
        for (name, seconds) in [("header", headerTimeout), ("body", bodyTimeout), ("idle", idleTimeout)]
        where !(seconds > 0 && seconds <= 86_400) {
            throw ValidationError("--\(name)-timeout must be above 0 and at most 86400 seconds, got \(seconds)")
        }
        guard maxConnections > 0 else { throw ValidationError("--max-connections must be at least 1") }
        for (name, bytes) in [("body", maxBody), ("document-size", maxDocumentSize)] where bytes < 1024 {
            throw ValidationError("--max-\(name) must be at least 1024 bytes, got \(bytes)")
        }
        guard pushTimeout >= 1, pushTimeout <= 300 else {
            throw ValidationError("--push-timeout must be between 1 and 300 seconds, got \(pushTimeout)")
        }
        guard pushRetryBase >= 0.01, pushRetryBase <= 3600 else {
            throw ValidationError("--push-retry-base must be between 0.01 and 3600 seconds, got \(pushRetryBase)")
        }
        if let clientAddressHeader, HTTPField.Name(clientAddressHeader) == nil {
            throw ValidationError(
                "--client-address-header \(clientAddressHeader) is not a header name such as X-Real-IP")
        }
        if cluster.cluster != nil, port == 0, cluster.advertise == nil {
            throw ValidationError("--cluster with --port 0 needs --advertise URL: other nodes forward writes there")
        }
        _ = try cluster.options(host: host, port: port)
        _ = try servedNamespaces()
    }

    /// The data directory's log, a previous release's brought forward as `muster migrate` would. On a node of a
    /// cluster, a log holding another event than the namespace's stream at a position both hold is set aside
    /// (`DivergedDirectory`) and an empty one opened, which the node rebuilds from the stream.
    private func openLog(
        _ data: DataOptions, namespace: String, joining: Joining?,
        logger: Logger, observer: @escaping @Sendable (EventLog.Commit) -> Void
    ) async throws -> EventLog {
        let log = try data.open(mustExist: false, allowOlderFormat: true, commitObserver: observer)
        do {
            _ = try await Migrate.bringForward(log)
            guard let joining,
                let reason = try await Self.onceJetStreamAnswers(
                    logger,
                    {
                        try await NamespaceStream(namespace: namespace).divergence(of: log, over: joining.connection)
                    })
            else { return log }
            log.close()
            let aside = try DivergedDirectory.setAside(data.directory)
            logger.warning(
                "\(reason): the data directory was moved aside to \(aside.path) (kept, nothing deleted); the namespace is rebuilt from the stream"
            )
            return try data.open(mustExist: false, commitObserver: observer)
        } catch {
            log.close()
            throw error
        }
    }

    /// A node's way into its cluster: how it reached NATS, its options, its connection.
    private typealias Joining = (
        nats: NATSConfiguration, options: ReplicatedNamespace.Options, connection: NATSConnection
    )

    /// The connection to the cluster of `--cluster` and this node's options; nil without one.
    private func connectCluster(
        logger: Logger
    ) async throws -> Joining? {
        guard let (natsConfiguration, options) = try cluster.options(host: host, port: port) else { return nil }
        do {
            return (natsConfiguration, options, try await NATSConnection.connect(natsConfiguration, logger: logger))
        } catch let error as NATSError {
            throw ClusterCredentials.failure(error, natsConfiguration)
        }
    }

    /// The cluster's lease bucket, once this node's settings are known to be the cluster's. Sets the cluster's
    /// forwarding key in `configuration`, and has tokens name their namespace (a node may serve several).
    private func joinCluster(
        _ joining: Joining, logger: Logger, configuration: inout ServerConfiguration
    ) async throws -> KeyValueBucket {
        let (natsConfiguration, options, connection) = joining
        let leases: KeyValueBucket
        do {
            leases = try await Self.onceJetStreamAnswers(logger) {
                try await connection.keyValueBucket(
                    NamespaceLease.configuration(time: options.leaseTime, replicas: options.replicas))
            }
        } catch let error as NATSError where error.code == .failed {
            throw CommandFailure.invalid(await Self.otherLeaseSettings(connection, options) ?? error.message)
        }
        configuration.forwardingKey = try await Self.onceJetStreamAnswers(logger) {
            try await ForwardingKey.load(connection, replicas: options.replicas)
        }
        configuration.sessionPolicy.namesNamespaceInTokens = true
        logger.info("node \(options.holder.node) joins the cluster at \(natsConfiguration.address)")
        return leases
    }

    /// Runs `step` until JetStream answers it, for at most 30 s: NATS servers started a moment ago (with this node, by
    /// the same script) still elect their leaders, and answer "unavailable" or not at all meanwhile.
    private static func onceJetStreamAnswers<T>(_ logger: Logger, _ step: () async throws -> T) async throws -> T {
        let deadline = ContinuousClock.now + .seconds(30)
        while true {
            do {
                return try await step()
            } catch let error as NATSError where error.code == .unavailable && ContinuousClock.now < deadline {
                logger.info("waiting for JetStream: \(error.message)")
                try await Task.sleep(for: .milliseconds(500))
            }
        }
    }

    /// What to start this node with when the cluster's lease bucket exists with other settings than its options ask
    /// for (every node of a cluster shares it); nil when they cannot be read.
    private static func otherLeaseSettings(
        _ connection: NATSConnection, _ options: ReplicatedNamespace.Options
    ) async -> String? {
        guard let bucket = try? await connection.existingKeyValueBucket(NamespaceLease.bucket),
            let settings = try? await bucket.settings(), let ttl = settings.ttl
        else { return nil }
        func seconds(_ time: Duration) -> String {
            let value = Double(time.components.seconds) + Double(time.components.attoseconds) / 1e18
            return value.rounded() == value ? String(Int(value)) : String(value)
        }
        let servers = settings.replicas == 1 ? "1 server" : "\(settings.replicas) servers"
        return "the cluster's leases (key-value bucket \(NamespaceLease.bucket)) last \(seconds(ttl)) s, kept by "
            + "\(servers), and every node uses the same: start this node with --lease-seconds \(seconds(ttl)) "
            + "--cluster-replicas \(settings.replicas), not --lease-seconds \(seconds(options.leaseTime)) "
            + "--cluster-replicas \(options.replicas)"
    }

    func run() async throws {
        let logger = logging.bootstrap()
        let registry = PrometheusCollectorRegistry()
        let metrics = ServerMetrics(registry: registry)
        MetricsSystem.bootstrap(PrometheusMetricsFactory(registry: registry))

        // The NATS connection is closed before the process ends, also when starting or serving fails: one left
        // open races libnats' threads (and OpenSSL's, over TLS) at exit.
        let joining = try await connectCluster(logger: logger)
        do {
            try await runNode(joining: joining, logger: logger, metrics: metrics)
        } catch let error as NamespaceDiverged {
            await joining?.connection.close()
            throw CommandFailure.failed(error.description)
        } catch {
            await joining?.connection.close()
            throw error
        }
        await joining?.connection.close()
        FileHandle.standardError.write(Data("muster serve: stopped; every acknowledged event is on disk\n".utf8))
    }

    /// Opens the data directory, joins the cluster it connected to (if any) and serves until told to stop.
    private func runNode(
        joining: Joining?,
        logger: Logger, metrics: ServerMetrics
    ) async throws {
        let places = try namespacePlaces()
        var configuration = try await serverConfiguration()
        var leases: KeyValueBucket?
        if let joining { leases = try await joinCluster(joining, logger: logger, configuration: &configuration) }
        var logs: [EventLog] = []
        defer { logs.forEach { $0.close() } }
        var servers: [MusterServer] = []
        for (served, directory) in places.namespaces {
            let log = try await openLog(directory, namespace: served, joining: joining, logger: logger) { commit in
                metrics.commit(commit)
            }
            logs.append(log)
            var own = configuration
            own.namespace = served
            if places.isMany {
                // Each namespace's bridge subscribes to its own devices' topics, in a broker session of its own.
                own.mqtt?.connection.clientID += "-" + NamespaceStream(namespace: served).suffix
            }
            var part: ReplicatedNamespace?
            if let joining, let leases {
                logger.info("node \(joining.options.holder.node) serves namespace \(served) from \(log.directory.path)")
                part = ReplicatedNamespace(
                    log: log, namespace: served, connection: joining.connection, leases: leases,
                    options: joining.options, logger: logger)
            }
            servers.append(try await server(log, own, metrics: metrics, logger: logger, cluster: part))
        }
        let scheme = configuration.tls == nil ? "http" : "https"
        let main = logs[places.namespaces.firstIndex { $0.name == places.defaultNamespace }!]
        guard places.isMany else {
            return try await serve(servers[0].run, scheme: scheme, directory: main.directory.path, head: main.head)
        }
        let node = MusterNode(servers: servers, defaultNamespace: places.defaultNamespace, logger: logger)
        try await serve(node.run, scheme: scheme, directory: data.directory.path, head: main.head)
    }

    /// Where each namespace this node serves is kept: the one of `--namespace` in the data directory itself; with
    /// `--namespaces`, each in `DATA/namespaces/NAME/` (the name as the namespace's stream spells it), the default
    /// for requests naming none being `--namespace` when it is among them, else the first.
    private func namespacePlaces() throws -> (
        namespaces: [(name: String, directory: DataOptions)], defaultNamespace: String, isMany: Bool
    ) {
        guard let (served, main) = try servedNamespaces() else { return ([(namespace, data)], namespace, false) }
        let parent = data.directory.appendingPathComponent("namespaces", isDirectory: true)
        for directory in [data.directory, parent] where !FileManager.default.fileExists(atPath: directory.path) {
            // Readable by the owner only, as every data directory: the logs hold password hashes.
            try FileManager.default.createDirectory(
                at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        }
        let places = served.map { name in
            var directory = DataOptions()
            directory.data = parent.appendingPathComponent(NamespaceStream(namespace: name).suffix).path
            return (name: name, directory: directory)
        }
        return (places, main, true)
    }

    /// The namespaces of `--namespaces` and the one of them requests naming none go to; nil without it.
    private func servedNamespaces() throws -> (served: [String], main: String)? {
        guard let served = try cluster.servedNamespaces() else { return nil }
        if served.contains(namespace) { return (served, namespace) }
        if namespace == Names.defaultNamespace { return (served, served[0]) }
        throw ValidationError(
            "--namespace \(namespace) is not among --namespaces \(served.joined(separator: ",")): name the one "
                + "logins naming none go to")
    }

    /// The server of one namespace's log; errors of the OAuth or TLS settings say which option to fix.
    private func server(
        _ log: EventLog, _ configuration: ServerConfiguration, metrics: ServerMetrics, logger: Logger,
        cluster: ReplicatedNamespace?
    ) async throws -> MusterServer {
        do {
            return try await MusterServer.make(
                log: log, configuration: configuration, metrics: metrics, logger: logger, cluster: cluster)
        } catch let error as OIDCConfigurationError {
            throw CommandFailure.invalid("--jwks \(jwks ?? ""): \(error.message)")
        } catch let error as ServerTLSError {
            throw CommandFailure.invalid(error.description)
        }
    }

    /// The server's settings from the options, the namespace's aside.
    private func serverConfiguration() async throws -> ServerConfiguration {
        var configuration = ServerConfiguration()
        configuration.host = host
        configuration.port = port
        if let tlsCert, let tlsKey { configuration.tls = ServerTLS(certificateFile: tlsCert, keyFile: tlsKey) }
        configuration.namespace = namespace
        configuration.openRegistration = openRegistration
        configuration.rateLimit = rateLimit
        configuration.burst = rateLimit * 2
        configuration.sessionPolicy.accessTokenLifetime = accessTokenLifetime
        configuration.sessionPolicy.refreshTokenLifetime = refreshTokenLifetime
        configuration.keepAlive = .milliseconds(Int64(streamKeepAlive * 1000))
        configuration.sessionPolicy.failedLoginDelay = failedLoginDelay
        configuration.headerTimeout = .seconds(headerTimeout)
        configuration.bodyTimeout = .seconds(bodyTimeout)
        configuration.idleTimeout = .seconds(idleTimeout)
        configuration.maxConnections = maxConnections
        configuration.bodyLimit = maxBody
        configuration.documentLimit = maxDocumentSize
        configuration.pushConnections.timeout = .milliseconds(Int64(pushTimeout * 1000))
        if let pushCaFile {
            do {
                configuration.pushConnections.additionalTrustRoots = try ProviderConnectionOptions.trustRoots(
                    pemFile: pushCaFile)
            } catch let error as PushConfigurationError {
                throw ValidationError(error.description)
            }
        }
        configuration.delivery?.backoff.base = .milliseconds(Int64(pushRetryBase * 1000))
        if noPush { configuration.delivery = nil }
        configuration.mqtt = try mqtt.bridgeOptions()
        configuration.clientAddressHeader = clientAddressHeader.flatMap { HTTPField.Name($0) }
        configuration.webApp.mapTiles = mapTiles.isEmpty ? nil : mapTiles
        configuration.webApp.mapAttribution = mapAttribution
        configuration.webApp.directory = webDirectory.map { URL(fileURLWithPath: $0) }
        if let dashboardURL {
            guard let url = URL(string: dashboardURL.replacing("{tab}", with: "x")),
                ["http", "https"].contains(url.scheme)
            else {
                throw ValidationError(
                    "--dashboard-url \(dashboardURL): expected an http(s) URL, with {tab} where the tab goes")
            }
            configuration.webApp.dashboard = dashboardURL
        }
        if auth == .oauth, let oidcIssuer, let oidcAudience, let jwks {
            configuration.authentication = .oauth(
                .init(issuer: oidcIssuer, audience: oidcAudience, jwks: try await Self.read(jwks, option: "--jwks")))
            configuration.webApp.singleSignOn = await singleSignOn(
                issuer: oidcIssuer, clientId: oidcClientId ?? oidcAudience)
        }
        return configuration
    }

    /// Runs the server (`run`) until it is told to stop; says where it listens once it does.
    private func serve(
        _ run: (@escaping @Sendable (Int) async -> Void) async throws -> Void, scheme: String, directory: String,
        head: UInt64
    ) async throws {
        try await run { [json, host] port in
            // On stdout, so scripts (and tests) started with --port 0 learn the port.
            if json {
                try? Output.json(Listening(listening: "\(scheme)://\(host):\(port)", data: directory, head: head))
                return
            }
            FileHandle.standardOutput.write(
                Data(
                    """
                    muster serve: listening on \(scheme)://\(host):\(port) — data directory \(directory), log head \(head)
                    try: curl \(scheme)://\(host):\(port)/api/v1/server
                    Stop with Ctrl-C; requests in flight finish first.

                    """.utf8))
        }
    }

    /// A document from a file or an http(s) URL; errors name `option`.
    static func read(_ source: String, option: String) async throws -> Data {
        if source.hasPrefix("http://") || source.hasPrefix("https://") {
            guard let url = URL(string: source) else {
                throw CommandFailure.invalid("\(option) \(source) is not a URL")
            }
            do {
                let (data, _) = try await URLSession.shared.data(from: url)
                return data
            } catch {
                throw CommandFailure.failed("\(option) \(source) could not be fetched: \(error.localizedDescription)")
            }
        }
        do {
            return try Data(contentsOf: URL(fileURLWithPath: source))
        } catch {
            throw CommandFailure.invalid("\(option) \(source) cannot be read: \(error.localizedDescription)")
        }
    }

    /// How the web app signs people in at the issuer, from its discovery document. Without one the API still takes
    /// the issuer's tokens; the web app then says it cannot sign in, and serve says why.
    private func singleSignOn(issuer: String, clientId: String) async -> SingleSignOn? {
        let address = (issuer.hasSuffix("/") ? String(issuer.dropLast()) : issuer) + "/.well-known/openid-configuration"
        do {
            return try SingleSignOn(
                discovery: try await Self.read(address, option: "--oidc-issuer"), issuer: issuer, clientId: clientId)
        } catch {
            FileHandle.standardError.write(
                Data("muster serve: the web app cannot sign people in: \(address) \(error)\n".utf8))
            return nil
        }
    }
}
