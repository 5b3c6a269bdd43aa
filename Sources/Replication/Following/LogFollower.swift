import EventLog
import Foundation
import Logging
import NATS
import Synchronization

/// Follows one namespace's stream into this node's log, on a replica: each message's envelope is appended unchanged at
/// its sequence (`EventLog.appendStored`), so the log holds the primary's events at the primary's positions and every
/// projection is built from them as on the primary.
///
/// A message that does not continue the log (another event at a position this log holds, bytes that fail their
/// checksum) stops the follower as `diverged`: the log is left as it is, for the node to set aside and rebuild. While
/// the stream cannot be read it is `unavailable` and tries again from the log's head.
public final class LogFollower: Sendable {
    /// What the follower is doing.
    public enum State: Sendable, Hashable {
        case starting
        /// Appending what the stream holds, then each new event.
        case following
        /// The stream cannot be read now; the reason. Trying again.
        case unavailable(String)
        /// The stream's events do not continue this log; the reason. Stopped for good.
        case diverged(String)
        /// `run()` ended.
        case stopped
    }

    let log: EventLog
    let connection: NATSConnection
    /// The namespace's stream.
    public let stream: NamespaceStream
    /// The blobs each event names, fetched from ``blobStream`` before it is appended; nil: none.
    let blobs: BlobReferences?
    /// The namespace's blobs.
    public let blobStream: BlobStream
    /// The secrets events name, fetched from `SecretBucket` before they are appended and erased here once unused;
    /// nil: none.
    let secrets: SecretReferences?
    let logger: Logger
    private let current = Mutex(State.starting)
    /// The secrets the log uses that were not in the bucket when last looked for: looked for again while idle.
    private let missingSecrets = Mutex<Set<String>>([])

    /// A follower of `namespace`'s stream into `log`; the blobs (`blobs`) and secrets (`secrets`) events name are
    /// stored before them.
    public init(
        log: EventLog, namespace: String, connection: NATSConnection, blobs: BlobReferences? = nil,
        secrets: SecretReferences? = nil, logger: Logger = Logger(label: "muster.replication")
    ) {
        self.log = log
        self.connection = connection
        self.stream = NamespaceStream(namespace: namespace)
        self.blobs = blobs
        self.blobStream = BlobStream(namespace: namespace)
        self.secrets = secrets
        self.logger = logger
    }

    /// What the follower is doing now.
    public var state: State { current.withLock { $0 } }

    /// Follows until the task is cancelled or the stream's events do not continue the log.
    public func run() async {
        var pause = Duration.milliseconds(100)
        while !Task.isCancelled {
            do {
                try await checkTheLogIsAPrefixOfTheStream()
                if let secrets { try await reconcileSecrets(secrets) }
                let reader = try await connection.read(stream: stream.name, subject: stream.subject, from: log.head + 1)
                set(.following)
                pause = .milliseconds(100)
                do {
                    try await follow(reader)
                    await reader.close()
                } catch {
                    await reader.close()
                    throw error
                }
            } catch let error as StoreError where error.code != .closed && error.code != .diskFull {
                set(.diverged(error.message))
                logger.error("following namespace \(stream.namespace) stopped: \(error.message)")
                return
            } catch is CancellationError {
                break
            } catch {
                set(.unavailable("\(error)"))
                logger.warning("following namespace \(stream.namespace) paused: \(error); trying again in \(pause)")
                try? await Task.sleep(for: pause)
                pause = min(pause * 2, .seconds(2))
            }
        }
        set(.stopped)
    }

    /// Waits until the stream reaches this log's head, then checks that it holds the same event there: a log with
    /// events of its own (written before the node joined, or as a primary that never published them) must not have
    /// the stream's appended after them.
    private func checkTheLogIsAPrefixOfTheStream() async throws {
        let head = log.head
        guard head > 0 else { return }
        while try await connection.streamInfo(stream.name).lastSequence < head {
            try await Task.sleep(for: .milliseconds(250))
        }
        guard try await stream.agrees(with: log, at: head, over: connection) else {
            throw StoreError(
                .conflict,
                "this node's log of namespace \(stream.namespace) holds another event at position \(head) than the namespace's stream: restart the node — muster serve --cluster sets such a data directory aside and rebuilds it from the stream"
            )
        }
    }

    private func follow(_ reader: StreamReader) async throws {
        var lookedForSecrets = ContinuousClock.now
        while !Task.isCancelled {
            let messages = try await reader.fetch(max: 512, timeout: .milliseconds(500))
            if messages.isEmpty {
                // A secret put by a primary that started after this node (it replicates what an older release
                // did not) arrives while the log is idle.
                if let secrets, !missingSecrets.withLock({ $0.isEmpty }),
                    ContinuousClock.now - lookedForSecrets > .seconds(2)
                {
                    try await reconcileSecrets(secrets)
                    lookedForSecrets = .now
                }
                continue
            }
            try await append(messages)
        }
    }

    /// Appends the stream's `messages` to the log at their sequences, the blobs and secrets they name stored first.
    func append(_ messages: [StreamMessage]) async throws {
        let events = try messages.map { try StoredEvent(position: $0.sequence, envelope: $0.data) }
        let recorded = blobs == nil && secrets == nil ? [] : try events.map { try $0.recorded() }
        if let blobs { try await fetchBlobs(namedBy: recorded, blobs) }
        if let secrets { try await fetchSecrets(namedBy: recorded, secrets) }
        try await log.appendStored(events)
        if let secrets, recorded.contains(where: secrets.mayRelease) { try eraseUnusedSecrets(secrets) }
    }

    /// Stores the secrets `events` name that this node lacks, from the secret bucket, before the events are appended:
    /// this node can take the namespace over and sign its pushes. A secret the bucket does not hold is skipped with a
    /// warning (the events must go on); a push source using it cannot be used on this node.
    private func fetchSecrets(namedBy events: [RecordedEvent], _ secrets: SecretReferences) async throws {
        let lacking = Set(events.flatMap(secrets.named)).filter { (try? log.secrets.secret($0)) == nil }
        if lacking.isEmpty { return }
        try await fetch(lacking, from: try await SecretBucket.existing(stream, over: connection))
    }

    /// Makes this node's secret store hold what its log uses: secrets it lacks (named by events appended before it
    /// could fetch them) are fetched, and those no longer used are erased.
    private func reconcileSecrets(_ secrets: SecretReferences) async throws {
        let lacking = try secrets.inUse(log).subtracting(log.secrets.fingerprints())
        missingSecrets.withLock { $0.formIntersection(lacking) }
        if !lacking.isEmpty {
            try await fetch(lacking, from: try await SecretBucket.existing(stream, over: connection))
        }
        try eraseUnusedSecrets(secrets)
    }

    /// Stores each of `fingerprints`' secrets from the bucket; one it lacks is looked for again later (and named once
    /// in the node's log).
    private func fetch(_ fingerprints: Set<String>, from bucket: SecretBucket?) async throws {
        for fingerprint in fingerprints.sorted() {
            guard let secret = try await bucket?.secret(fingerprint) else {
                guard missingSecrets.withLock({ $0.insert(fingerprint).inserted }) else { continue }
                logger.warning(
                    "secret \(fingerprint.prefix(12))… named in namespace \(stream.namespace) is not in the bucket \(SecretBucket.name): its push source cannot be used on this node until it is"
                )
                continue
            }
            guard SecretStore.fingerprint(of: secret) == fingerprint else {
                logger.error(
                    "the bucket \(SecretBucket.name) holds another secret for \(fingerprint.prefix(12))…: not kept")
                continue
            }
            try log.secrets.store(secret)
            missingSecrets.withLock { _ = $0.remove(fingerprint) }
        }
    }

    /// Erases the secrets this node keeps that its log no longer uses (their source was removed or given another key).
    private func eraseUnusedSecrets(_ secrets: SecretReferences) throws {
        for fingerprint in try Set(log.secrets.fingerprints()).subtracting(secrets.inUse(log)) {
            try log.secrets.remove(fingerprint)
        }
    }

    /// Stores the blobs `events` name that this log lacks, from the blob stream, before the events are appended. A
    /// blob the stream does not hold (published by a release before blob replication) is skipped with a warning:
    /// the events must go on; its document then cannot be read on this node.
    private func fetchBlobs(namedBy events: [RecordedEvent], _ blobs: BlobReferences) async throws {
        for event in events {
            for id in blobs(event) where try !log.blobs.exists(id) {
                guard let bytes = try await blobStream.content(id, over: connection) else {
                    logger.warning(
                        "blob \(id) named by event \(event.position) of namespace \(stream.namespace) is not in the stream \(blobStream.name): the event is kept without it"
                    )
                    continue
                }
                let stored = try await log.blobs.put(bytes)
                if stored.info.id != id {
                    logger.error(
                        "the stream \(blobStream.name) holds other content for blob \(id) (its SHA-256 is \(stored.info.id))"
                    )
                }
            }
        }
    }

    private func set(_ state: State) {
        current.withLock { current in
            if case .diverged = current { return }
            current = state
        }
    }
}
