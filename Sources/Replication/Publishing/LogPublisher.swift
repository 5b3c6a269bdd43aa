import EventLog
import Foundation
import Logging
import NATS
import Synchronization

/// Publishes one namespace's log to its stream, in position order, each event once, on the namespace's primary.
///
/// Every message is an event's stored envelope with `Nats-Msg-Id` = the event id and an expected last sequence of
/// position − 1, so the stream's sequences are the log's positions: a gap or a fork is refused by JetStream. A refusal
/// for a wrong last sequence, or a stream that holds more than this log or other events, means another node wrote to
/// the namespace: the publisher stops as `fenced` and nothing of this log is published any more. While the cluster
/// cannot take publishes (no quorum, no connection) it is `unavailable` and tries again, from what the stream holds
/// then (a publish whose acknowledgement was lost may have been stored).
///
/// Writers wait for their events with `waitUntilPublished(through:timeout:)`; `run()` does the work until cancelled.
public final class LogPublisher: Sendable {
    /// What the publisher is doing.
    public enum State: Sendable, Hashable {
        /// Making sure of the stream and of what it holds.
        case starting
        /// Every committed event is published or being published.
        case publishing
        /// The cluster does not take publishes now; the reason. Trying again.
        case unavailable(String)
        /// Another node writes to the namespace; the reason. Stopped for good.
        case fenced(String)
        /// `run()` ended.
        case stopped
    }

    private struct Status {
        var state = State.starting
        var published: UInt64 = 0
        var waiters: [UInt64: Waiter] = [:]
        var nextWaiter: UInt64 = 0
    }

    private struct Waiter {
        let position: UInt64
        let continuation: CheckedContinuation<Void, any Error>
    }

    let log: EventLog
    let connection: NATSConnection
    /// The namespace's stream.
    public let stream: NamespaceStream
    let replicas: Int
    /// The blobs each event names, published before it to ``blobStream``; nil: none.
    let blobs: BlobReferences?
    /// The namespace's blobs.
    public let blobStream: BlobStream
    /// The secrets events name, put into `SecretBucket` before them and deleted there once unused; nil: none.
    let secrets: SecretReferences?
    private let secretBucket = Mutex<SecretBucket?>(nil)
    let logger: Logger
    private let status = Mutex(Status())

    /// A publisher of `log` (the log of `namespace`) over `connection`, to a stream of `replicas` copies; the blobs
    /// events name (`blobs`) go to the namespace's blob stream before them, and the secrets they name (`secrets`) to
    /// the cluster's secret bucket.
    public init(
        log: EventLog, namespace: String, connection: NATSConnection, replicas: Int = 3,
        blobs: BlobReferences? = nil, secrets: SecretReferences? = nil,
        logger: Logger = Logger(label: "muster.replication")
    ) {
        self.log = log
        self.connection = connection
        self.stream = NamespaceStream(namespace: namespace)
        self.replicas = replicas
        self.blobs = blobs
        self.blobStream = BlobStream(namespace: namespace)
        self.secrets = secrets
        self.logger = logger
    }

    /// What the publisher is doing now.
    public var state: State { status.withLock { $0.state } }

    /// The last position the stream acknowledged.
    public var published: UInt64 { status.withLock { $0.published } }

    /// Returns once every event up to `position` is published; throws `ReplicationError` `fenced` at once when
    /// another node writes to the namespace, and `unavailable` when `timeout` passes first.
    public func waitUntilPublished(through position: UInt64, timeout: Duration) async throws {
        let id = try status.withLock { status -> UInt64? in
            if status.published >= position { return nil }
            if case .fenced(let why) = status.state { throw ReplicationError(.fenced, why) }
            status.nextWaiter += 1
            return status.nextWaiter
        }
        guard let id else { return }
        let timer = Task {
            try await Task.sleep(for: timeout)
            self.fail(id, ReplicationError(.unavailable, self.unavailableMessage(position, after: timeout)))
        }
        defer { timer.cancel() }
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            let ready = status.withLock { status -> Result<Void, any Error>? in
                if status.published >= position { return .success(()) }
                if case .fenced(let why) = status.state { return .failure(ReplicationError(.fenced, why)) }
                status.waiters[id] = Waiter(position: position, continuation: continuation)
                return nil
            }
            if let ready { continuation.resume(with: ready) }
        }
    }

    /// Publishes until the task is cancelled or the publisher is fenced.
    public func run() async {
        var pause = Duration.milliseconds(100)
        while !Task.isCancelled {
            do {
                try await resume()
                pause = .milliseconds(100)
                try await publishCommits()
            } catch let error as ReplicationError where error.code != .unavailable {
                fence(error.message)
                return
            } catch let error as NATSError where error.code == .wrongLastSequence {
                fence(
                    "the stream \(stream.name) refused position \(published + 1) for its last sequence: another node writes to namespace \(stream.namespace) (\(error.message))"
                )
                return
            } catch is CancellationError {
                break
            } catch {
                set(.unavailable("\(error)"))
                logger.warning(
                    "replication of namespace \(stream.namespace) paused: \(error); trying again in \(pause)")
                try? await Task.sleep(for: pause)
                pause = min(pause * 2, .seconds(2))
            }
        }
        set(.stopped)
    }

    /// Makes sure of the stream and finds where publishing goes on: after what the stream holds, once that is known
    /// to be this log's own events.
    private func resume() async throws {
        let info = try await connection.createOrUpdateStream(stream.configuration(replicas: replicas))
        if blobs != nil { _ = try await connection.createOrUpdateStream(blobStream.configuration(replicas: replicas)) }
        if let secrets { try await reconcileSecrets(secrets) }
        let held = info.lastSequence
        let head = log.head
        if held > head {
            throw ReplicationError(
                .fenced,
                "the stream \(stream.name) holds \(held) events and this node's log of namespace \(stream.namespace) \(head): another node has written to it"
            )
        }
        if held > 0 {
            guard try await stream.agrees(with: log, at: held, over: connection) else {
                throw ReplicationError(
                    .diverged,
                    "the stream \(stream.name) holds another event at position \(held) than this node's log of namespace \(stream.namespace)"
                )
            }
        }
        advance(to: held)
        set(.publishing)
    }

    /// Publishes each commit's events as they come, until cancelled.
    private func publishCommits() async throws {
        var checkpointed = try log.read { try $0.replicatedThrough }
        var lastCheckpoint = ContinuousClock.now
        while !Task.isCancelled {
            let from = published + 1
            let events = try log.read { try $0.storedEvents(from: from, limit: 256) }
            if events.isEmpty {
                if checkpointed < published {
                    checkpointed = try await checkpoint()
                    lastCheckpoint = .now
                }
                await log.waitForCommit(beyond: published, timeout: .seconds(1))
                continue
            }
            try await publish(events)
            if ContinuousClock.now - lastCheckpoint > .seconds(1) {
                checkpointed = try await checkpoint()
                lastCheckpoint = .now
            }
        }
    }

    /// Publishes a run of events in one pipelined batch; what the stream acknowledged before a failure counts.
    private func publish(_ events: [StoredEvent]) async throws {
        let recorded = blobs == nil && secrets == nil ? [] : try events.map { try $0.recorded() }
        if let blobs { try await publishBlobs(namedBy: recorded, blobs) }
        if let secrets { try await publishSecrets(namedBy: recorded, secrets) }
        let messages = events.map { event in
            OutgoingMessage(
                subject: stream.subject, data: event.envelope, messageID: event.id.uuidString,
                expectedLastSequence: event.position - 1)
        }
        let acknowledgements: [PublishAcknowledgement]
        do {
            acknowledgements = try await connection.publish(messages)
        } catch let error as NATSError {
            if let acknowledged = error.acknowledgedBefore, acknowledged > 0 {
                advance(to: events[acknowledged - 1].position)
            }
            throw error
        }
        for (event, acknowledgement) in zip(events, acknowledgements) where acknowledgement.sequence != event.position {
            throw ReplicationError(
                .diverged,
                "the stream \(stream.name) stored position \(event.position) of namespace \(stream.namespace) at sequence \(acknowledgement.sequence)"
            )
        }
        advance(to: events.last!.position)
        if let secrets, recorded.contains(where: secrets.mayRelease) {
            try await deleteUnusedSecrets(secrets, from: try bucket())
        }
    }

    /// Publishes the blobs `events` name that the blob stream does not hold yet, before the events themselves: a
    /// replica holding an event can hold its blob. A blob this log lacks (named by an event a release before blob
    /// replication followed) is skipped, with a warning: it cannot be sent, and the events must go on.
    private func publishBlobs(namedBy events: [RecordedEvent], _ blobs: BlobReferences) async throws {
        for event in events {
            for id in blobs(event) {
                guard let info = try log.blobs.info(id) else {
                    logger.warning(
                        "blob \(id) named by event \(event.position) of namespace \(stream.namespace) is not in this node's store: not replicated"
                    )
                    continue
                }
                if try await blobStream.holds(id, size: Int(info.rawSize), over: connection) { continue }
                try await blobStream.publish(id, try log.blobs.bytes(id), over: connection)
            }
        }
    }

    /// Puts the secrets `events` name that the bucket does not hold yet, before the events: a replica that takes the
    /// namespace over can use them. A secret this node lacks (removed since, or a directory copied without
    /// `secrets/`) is skipped with a warning.
    private func publishSecrets(namedBy events: [RecordedEvent], _ secrets: SecretReferences) async throws {
        let named = events.flatMap(secrets.named)
        if named.isEmpty { return }
        let bucket = try bucket()
        for fingerprint in Set(named) where try await bucket.secret(fingerprint) == nil {
            try await put(fingerprint, into: bucket)
        }
    }

    /// Makes the bucket hold what the log uses now and nothing else: a secret named by an event published before
    /// secrets were replicated is put; one the log no longer uses (its deletion cut short) is deleted.
    private func reconcileSecrets(_ secrets: SecretReferences) async throws {
        let bucket = try await SecretBucket.open(stream, over: connection, replicas: replicas)
        secretBucket.withLock { $0 = bucket }
        let held = try await bucket.fingerprints()
        for fingerprint in try secrets.inUse(log).subtracting(held) { try await put(fingerprint, into: bucket) }
        try await deleteUnusedSecrets(secrets, from: bucket, held: held)
    }

    private func put(_ fingerprint: String, into bucket: SecretBucket) async throws {
        guard let secret = try log.secrets.secret(fingerprint) else {
            logger.warning(
                "secret \(fingerprint.prefix(12))… of namespace \(stream.namespace) is not in this node's \(log.secrets.directory.path): not replicated"
            )
            return
        }
        try await bucket.put(fingerprint, secret)
    }

    /// Deletes from the bucket the secrets of this namespace its log no longer uses.
    private func deleteUnusedSecrets(
        _ secrets: SecretReferences, from bucket: SecretBucket, held: Set<String>? = nil
    ) async throws {
        let held = if let held { held } else { try await bucket.fingerprints() }
        for fingerprint in held.subtracting(try secrets.inUse(log)) { try await bucket.delete(fingerprint) }
    }

    private func bucket() throws -> SecretBucket {
        guard let bucket = secretBucket.withLock({ $0 }) else {
            throw ReplicationError(.unavailable, "the secret bucket of namespace \(stream.namespace) is not open yet")
        }
        return bucket
    }

    /// Records how far the stream holds this log; returns that position.
    private func checkpoint() async throws -> UInt64 {
        let through = published
        try await log.perform { try $0.recordReplicated(through: through) }
        return through
    }

    private func advance(to position: UInt64) {
        let ready = status.withLock { status -> [CheckedContinuation<Void, any Error>] in
            status.published = max(status.published, position)
            let done = status.waiters.filter { $0.value.position <= status.published }
            for id in done.keys { status.waiters[id] = nil }
            return done.values.map(\.continuation)
        }
        for continuation in ready { continuation.resume() }
    }

    private func set(_ state: State) {
        status.withLock { status in
            if case .fenced = status.state { return }
            status.state = state
        }
    }

    private func fence(_ why: String) {
        logger.error("replication of namespace \(stream.namespace) fenced: \(why)")
        let waiting = status.withLock { status -> [CheckedContinuation<Void, any Error>] in
            status.state = .fenced(why)
            defer { status.waiters = [:] }
            return status.waiters.values.map(\.continuation)
        }
        for continuation in waiting { continuation.resume(throwing: ReplicationError(.fenced, why)) }
    }

    private func fail(_ id: UInt64, _ error: ReplicationError) {
        status.withLock { $0.waiters.removeValue(forKey: id) }?.continuation.resume(throwing: error)
    }

    private func unavailableMessage(_ position: UInt64, after timeout: Duration) -> String {
        let why: String
        switch state {
        case .unavailable(let reason): why = ": \(reason)"
        default: why = ""
        }
        return
            "position \(position) of namespace \(stream.namespace) is stored on this node but was not replicated within \(timeout)\(why); retry later"
    }
}
