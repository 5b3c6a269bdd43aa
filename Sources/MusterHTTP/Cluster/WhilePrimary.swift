import Logging
import Replication
import ServiceLifecycle

/// A service that runs only on the namespace's primary (the rule timers, push delivery, the MQTT bridge): made and
/// started when this node becomes the primary, cancelled when it stops being it, until the server shuts down.
struct WhilePrimary: Service {
    let cluster: ReplicatedNamespace
    let name: String
    let logger: Logger
    let make: @Sendable () -> any Service

    func run() async throws {
        await cancelWhenGracefulShutdown {
            var running: Task<Void, Never>?
            for await role in cluster.roles() {
                if role == .primary, running == nil {
                    logger.info("starting \(name): this node is the primary of namespace \(cluster.stream.namespace)")
                    let service = make()
                    running = Task {
                        do { try await service.run() } catch { logger.error("\(name) ended: \(error)") }
                    }
                } else if role != .primary, let task = running {
                    logger.info("stopping \(name): this node is no longer the primary")
                    task.cancel()
                    await task.value
                    running = nil
                }
            }
            running?.cancel()
            await running?.value
        }
    }
}

/// The node's part in its namespace, for the server's lifetime; at shutdown the primary hands the namespace over to
/// any node (its lease released once its events are published), so another takes over at once.
///
/// A node fenced out of its namespace — its log holds events the namespace's stream does not, or other ones — can
/// neither take writes nor follow any more: the service then ends with ``NamespaceDiverged``, which stops the whole
/// server gracefully, so that its supervisor starts it again (the Debian package's unit does); at start the
/// namespace's data directory is set aside and rebuilt from the stream.
struct ClusterService: Service {
    let cluster: ReplicatedNamespace
    let logger: Logger

    func run() async throws {
        let running = Task { await cluster.run() }
        let fenced = await cancelWhenGracefulShutdown { () -> String? in
            for await role in cluster.roles() {
                if case .fenced(let why) = role { return why }
            }
            return nil
        }
        if let fenced {
            running.cancel()
            await running.value
            throw NamespaceDiverged(namespace: cluster.stream.namespace, reason: fenced)
        }
        do {
            try await cluster.release()
        } catch {
            logger.warning("handing namespace \(cluster.stream.namespace) over at shutdown failed: \(error)")
        }
        running.cancel()
        await running.value
    }
}

/// A namespace this node can no longer serve: its log and the namespace's stream disagree. The node stops, to be
/// started again.
public struct NamespaceDiverged: Error, CustomStringConvertible {
    public let namespace: String
    public let reason: String

    public var description: String {
        "namespace \(namespace): \(reason). The node stopped so that it is started again (the Debian package's "
            + "service restarts it); at start its data directory is set aside, kept, and the namespace rebuilt from the "
            + "stream"
    }
}
