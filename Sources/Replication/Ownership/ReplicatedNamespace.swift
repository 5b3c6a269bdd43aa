import EventLog
import Foundation
import Logging
import NATS
import Synchronization

/// One namespace's log on one node of a cluster: a replica following the namespace's stream until the namespace has no
/// primary, then its primary — it takes the lease, catches up with the stream, publishes, and takes writes while it
/// renews the lease — until it loses the lease or is fenced.
///
/// It is the log's write gate: new events only on the primary, only while its lease is valid by this node's own clock
/// (so a node that was stopped past its lease takes no write before it has renewed), and answered once replicated
/// when `acknowledgement` says so. `run()` does the work until cancelled; `release()` hands the namespace over.
public final class ReplicatedNamespace: WriteGate, Sendable {
    /// What this node is to the namespace.
    public enum Role: Sendable, Hashable {
        /// Following the stream; another node (or none yet) is the primary.
        case replica
        /// Holding the lease and taking writes.
        case primary
        /// The stream holds other events than this node's log; the reason. Takes no write and follows no more: the
        /// namespace's directory must be set aside and rebuilt from the stream.
        case fenced(String)
    }

    /// How a node takes part.
    public struct Options: Sendable {
        /// The node's name and HTTP address, written in the leases it holds.
        public var holder: NamespaceLease.Holder
        /// How long a lease lives without renewal; renewed every third of it.
        public var leaseTime: Duration
        /// When writes are answered.
        public var acknowledgement: Acknowledgement
        /// Copies of the stream.
        public var replicas: Int
        /// The blobs each event names, replicated with it (`BlobStream`); nil: no blob goes with any event.
        public var blobs: BlobReferences?
        /// The secrets events name, replicated with them (`SecretBucket`); nil: none.
        public var secrets: SecretReferences?

        public init(
            holder: NamespaceLease.Holder, leaseTime: Duration = .seconds(6), acknowledgement: Acknowledgement = .local,
            replicas: Int = 3, blobs: BlobReferences? = nil, secrets: SecretReferences? = nil
        ) {
            self.holder = holder
            self.leaseTime = leaseTime
            self.acknowledgement = acknowledgement
            self.replicas = replicas
            self.blobs = blobs
            self.secrets = secrets
        }

        /// How long before its lapse on the server a lease is no longer trusted here: clocks and delays differ.
        var margin: Duration { min(.seconds(1), leaseTime / 4) }
    }

    private struct Status {
        var role = Role.replica
        /// While primary: the lease's revision and when its last renewal was sent (the lease lapses `leaseTime` after
        /// the server stored it, which is later).
        var revision: UInt64 = 0
        var renewedAt = ContinuousClock.now
        var publisher: LogPublisher?
    }

    let log: EventLog
    let connection: NATSConnection
    let lease: NamespaceLease
    /// The namespace's stream.
    public let stream: NamespaceStream
    let options: Options
    let logger: Logger
    private let status = Mutex(Status())
    private let watchers = Mutex<[UInt64: AsyncStream<Role>.Continuation]>([:])
    private let nextWatcher = Atomic<UInt64>(0)

    /// The node's part in `namespace`, whose log is `log`; leases are kept in `leases` (`NamespaceLease.bucket`).
    public init(
        log: EventLog, namespace: String, connection: NATSConnection, leases: KeyValueBucket, options: Options,
        logger: Logger = Logger(label: "muster.replication")
    ) {
        self.log = log
        self.connection = connection
        self.stream = NamespaceStream(namespace: namespace)
        self.lease = NamespaceLease(leases: leases, stream: stream)
        self.options = options
        self.logger = logger
        log.guardWrites(with: self)
    }

    /// What this node is to the namespace now.
    public var role: Role { status.withLock { $0.role } }

    /// This node's name in the cluster.
    public var node: String { options.holder.node }

    /// The role now, then each change of it, until the consumer stops iterating.
    public func roles() -> AsyncStream<Role> {
        let (stream, continuation) = AsyncStream<Role>.makeStream(bufferingPolicy: .bufferingNewest(8))
        let id = nextWatcher.add(1, ordering: .relaxed).newValue
        watchers.withLock { $0[id] = continuation }
        continuation.onTermination = { [weak self] _ in _ = self?.watchers.withLock { $0.removeValue(forKey: id) } }
        continuation.yield(role)
        return stream
    }

    /// Sets the role (a fenced node stays fenced) with `change`, and tells the watchers.
    private func setRole(_ role: Role, _ change: (inout Status) -> Void = { _ in }) {
        let changed = status.withLock { status -> Role? in
            change(&status)
            if case .fenced = status.role { return nil }
            guard status.role != role else { return nil }
            status.role = role
            return role
        }
        guard let changed else { return }
        for watcher in watchers.withLock({ Array($0.values) }) { watcher.yield(changed) }
    }

    /// The node that holds the namespace's lease now, if any.
    public func primary() async throws -> NamespaceLease.Holder? { try await lease.current()?.holder }

    // MARK: The write gate

    public func admit(namespace: String) throws {
        guard namespace == stream.namespace else {
            throw ReplicationError(
                .notServed,
                "this node serves namespace \(stream.namespace) of the cluster, not \(namespace); write to a node of namespace \(namespace)"
            )
        }
        let (role, renewedAt, publisher) = status.withLock { ($0.role, $0.renewedAt, $0.publisher) }
        switch role {
        case .fenced(let why):
            throw ReplicationError(.fenced, "this node takes no writes to namespace \(stream.namespace): \(why)")
        case .replica:
            throw ReplicationError(
                .notPrimary, "this node is a replica of namespace \(stream.namespace); writes go to its primary")
        case .primary:
            guard ContinuousClock.now < renewedAt + options.leaseTime - options.margin, let publisher else {
                throw ReplicationError(
                    .unavailable,
                    "this node could not renew its lease on namespace \(stream.namespace) in time; nothing was written; retry later"
                )
            }
            try PrimaryWrites(publisher: publisher, acknowledgement: options.acknowledgement).admit(
                namespace: namespace)
        }
    }

    public func acknowledged(through position: UInt64) async throws {
        guard case .replicated(let timeout) = options.acknowledgement else { return }
        guard let publisher = status.withLock({ $0.publisher }) else {
            // Stepped down between the commit and now: whether the stream has the write is not known here.
            throw ReplicationError(
                .unavailable,
                "this node stopped being the primary of namespace \(stream.namespace) before position \(position) was known to be replicated; retry"
            )
        }
        try await publisher.waitUntilPublished(through: position, timeout: timeout)
    }

    // MARK: Running

    /// Follows, takes over when the namespace has no primary, serves as primary while the lease holds; again, until
    /// cancelled or fenced.
    public func run() async {
        while !Task.isCancelled {
            if case .fenced = role { return }
            guard await followUntilTheLeaseIsTaken() else { return }
            do {
                try await takeOver()
            } catch {
                logger.warning("taking over namespace \(stream.namespace) failed: \(error); following again")
                await stepDown(releasing: true)
                continue
            }
            await serveWhileTheLeaseHolds()
        }
        await stepDown(releasing: false)
    }

    /// Stops taking writes, publishes what is left, and hands the namespace over to `successor` (which takes the lease
    /// as soon as it sees it: `muster cluster move`), or, without one, gives the lease up for any node to take. Returns
    /// once the lease says so; throws `unavailable` when the events could not be published within a lease time.
    public func release(to successor: String? = nil) async throws {
        guard let publisher = status.withLock({ status in status.role == .primary ? status.publisher : nil }) else {
            return
        }
        setRole(.replica)
        // A write admitted just before may not have committed yet: let the writer finish what it took (an empty job
        // commits after every job before it), so the head read next has it and it is published before the hand-over.
        try await log.perform { _ in }
        try await publisher.waitUntilPublished(through: log.head, timeout: options.leaseTime)
        for attempt in 1...3 {  // a renewal in flight may have moved the revision
            let revision = status.withLock { $0.revision }
            do {
                if let successor {
                    var holder = options.holder
                    holder.successor = successor
                    let handed = try await lease.renew(as: holder, revision: revision)
                    status.withLock { $0.revision = handed }
                } else {
                    try await lease.release(revision: revision)
                }
                logger.info(
                    "node \(options.holder.node) handed namespace \(stream.namespace) over to \(successor ?? "any node")"
                )
                return
            } catch let error as NATSError where error.code == .wrongRevision && attempt < 3 {
                continue
            }
        }
    }

    /// A follower of the namespace's stream into this node's log, with the blobs and secrets its events name.
    private func follower() -> LogFollower {
        LogFollower(
            log: log, namespace: stream.namespace, connection: connection, blobs: options.blobs,
            secrets: options.secrets, logger: logger)
    }

    /// Runs a follower until this node holds the lease (true), or is cancelled or finds its log diverged (false).
    private func followUntilTheLeaseIsTaken() async -> Bool {
        let follower = follower()
        let following = Task { await follower.run() }
        defer { following.cancel() }
        while !Task.isCancelled {
            if case .diverged(let why) = follower.state {
                fence(why)
                return false
            }
            do {
                let current = try await lease.current()
                if current == nil || current?.holder.successor == options.holder.node {
                    let revision =
                        if let current {
                            try await lease.takeOver(as: options.holder, revision: current.revision)
                        } else {
                            try await lease.take(as: options.holder)
                        }
                    following.cancel()
                    await following.value
                    status.withLock { $0.revision = revision }
                    return true
                }
            } catch let error as NATSError where error.code == .keyExists || error.code == .wrongRevision {
                // Another node was quicker.
            } catch {
                logger.debug("reading the lease of namespace \(stream.namespace): \(error)")
            }
            await report()
            try? await Task.sleep(for: options.leaseTime / 3)
        }
        return false
    }

    /// Tells the cluster what this node is to the namespace and how far its log goes (`muster cluster status`).
    private func report() async {
        let report = NodeReport(
            node: options.holder.node, url: options.holder.url, namespace: stream.namespace, role: role.word,
            head: log.head)
        do { try await lease.report(report) } catch {
            logger.debug("reporting on namespace \(stream.namespace): \(error)")
        }
    }

    /// Hands the namespace over when a move request names another node; true when it did.
    private func moveIfAsked() async -> Bool {
        guard let target = try? await lease.moveRequest(), target != options.holder.node else { return false }
        do {
            try await release(to: target)
            try? await lease.clearMoveRequest()
            return true
        } catch {
            logger.warning("moving namespace \(stream.namespace) to node \(target) failed: \(error)")
            return false
        }
    }

    /// With the lease taken: reads the stream to its end, starts publishing, and records this node as the primary —
    /// the first new event, which fences a previous primary still publishing.
    private func takeOver() async throws {
        let sentAt = ContinuousClock.now
        let info = try await connection.createOrUpdateStream(stream.configuration(replicas: options.replicas))
        if log.head < info.lastSequence { try await catchUp(to: info.lastSequence) }
        let publisher = LogPublisher(
            log: log, namespace: stream.namespace, connection: connection, replicas: options.replicas,
            blobs: options.blobs, secrets: options.secrets, logger: logger)
        publishing.withLock { $0 = Task { await publisher.run() } }
        let announcement = AppendRequest(
            namespace: stream.namespace, stream: "cluster",
            events: [
                NewEvent(
                    type: "PrimaryChanged",
                    body: .json(String(decoding: try JSONEncoder().encode(options.holder), as: UTF8.self)),
                    actor: options.holder.node)
            ])
        // The role changes on the writer, in the job that appends `PrimaryChanged`: a write taken before it was
        // refused, one taken after it comes after it in the log.
        try await log.perform { [self] scope in
            setRole(.primary) {
                $0.publisher = publisher
                $0.renewedAt = sentAt
            }
            do {
                try scope.append(announcement)
            } catch {
                setRole(.replica) { $0.publisher = nil }
                throw error
            }
        }
        logger.info("node \(options.holder.node) is now the primary of namespace \(stream.namespace)")
        await report()
    }

    /// Appends what the stream holds up to `last`; throws when that takes longer than a lease.
    private func catchUp(to last: UInt64) async throws {
        let reader = try await connection.read(stream: stream.name, subject: stream.subject, from: log.head + 1)
        let follower = follower()
        let deadline = ContinuousClock.now + options.leaseTime
        do {
            while log.head < last {
                guard ContinuousClock.now < deadline else {
                    throw ReplicationError(
                        .unavailable,
                        "namespace \(stream.namespace): the stream's events up to \(last) could not be read within \(options.leaseTime)"
                    )
                }
                try await follower.append(try await reader.fetch(max: 512, timeout: options.leaseTime / 3))
            }
        } catch {
            await reader.close()
            throw error
        }
        await reader.close()
    }

    /// Renews the lease every third of its time until it is lost or the publisher is fenced.
    private func serveWhileTheLeaseHolds() async {
        while !Task.isCancelled {
            try? await Task.sleep(for: options.leaseTime / 3)
            let (role, revision, publisher) = status.withLock { ($0.role, $0.revision, $0.publisher) }
            guard case .primary = role else {  // handed over
                await stepDown(releasing: false)
                return
            }
            if case .fenced(let why) = publisher?.state {
                fence(why)
                await stepDown(releasing: false)
                return
            }
            if await moveIfAsked() {
                await stepDown(releasing: false)
                return
            }
            let sentAt = ContinuousClock.now
            do {
                let renewed = try await lease.renew(as: options.holder, revision: revision)
                status.withLock {
                    $0.revision = renewed
                    $0.renewedAt = sentAt
                }
                await report()
            } catch let error as NATSError where error.code == .wrongRevision || error.code == .notFound {
                logger.warning("node \(options.holder.node) lost its lease on namespace \(stream.namespace)")
                await stepDown(releasing: false)
                return
            } catch {
                logger.warning("renewing the lease on namespace \(stream.namespace): \(error)")
            }
        }
    }

    private let publishing = Mutex<Task<Void, Never>?>(nil)

    /// Back to a replica (unless fenced): no writes, no publishing; the lease given up when `releasing`.
    private func stepDown(releasing: Bool) async {
        let revision = status.withLock { $0.revision }
        setRole(.replica) { $0.publisher = nil }
        if let task = publishing.withLock({ task in
            defer { task = nil }; return task
        }) {
            task.cancel()
            await task.value
        }
        if releasing { try? await lease.release(revision: revision) }
    }

    private func fence(_ why: String) {
        logger.error("namespace \(stream.namespace) fenced on node \(options.holder.node): \(why)")
        let fenced = Role.fenced(why)
        status.withLock { $0.role = fenced }
        for watcher in watchers.withLock({ Array($0.values) }) { watcher.yield(fenced) }
    }
}
