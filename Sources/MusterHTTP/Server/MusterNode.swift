import Hummingbird
import Logging
import ServiceLifecycle

/// Several namespaces' servers behind one listener: a node of a cluster that keeps each namespace it serves in a log of
/// its own (`DATA/namespaces/NAME/`). Each server runs its own log, projections, part in the cluster, rule timers and
/// push delivery; one HTTP listener — with the default namespace's server's address and limits — hands each request to
/// the server of its caller's namespace (`NamespaceResponder`).
public struct MusterNode: Sendable {
    let servers: [String: MusterServer]
    let defaultNamespace: String
    let logger: Logger

    /// The node of `servers`, each of the namespace its configuration names; requests naming no namespace go to
    /// `defaultNamespace`'s, which must be among them.
    public init(servers: [MusterServer], defaultNamespace: String, logger: Logger = Logger(label: "muster")) {
        self.servers = Dictionary(servers.map { ($0.api.configuration.namespace, $0) }) { first, _ in first }
        self.defaultNamespace = defaultNamespace
        self.logger = logger
        precondition(self.servers[defaultNamespace] != nil, "the default namespace has no server on this node")
    }

    /// The namespaces served, sorted.
    public var namespaces: [String] { servers.keys.sorted() }

    /// The responder that hands each request to its namespace's server, for tests without sockets.
    func responder() -> NamespaceResponder {
        let main = servers[defaultNamespace]!
        return NamespaceResponder(
            namespaces: servers.mapValues {
                NamespaceResponder.Namespace(responder: $0.router().buildResponder(), sessions: $0.api.sessions)
            },
            defaultNamespace: defaultNamespace, bodyLimit: main.api.configuration.bodyLimit)
    }

    /// Serves until SIGTERM or SIGINT; then the listener closes first, and each namespace's services stop as a
    /// server of its own stops them.
    public func run(onServerRunning: @escaping @Sendable (Int) async -> Void = { _ in }) async throws {
        let main = servers[defaultNamespace]!
        let services = namespaces.flatMap { servers[$0]!.services() }
        let listener = main.application(responder: responder(), onServerRunning: onServerRunning)
        try await MusterServer.run(services + [.init(service: listener)], logger: logger)
    }
}
