import EventLog

/// The write gate of a namespace's log on its primary: new events only while the publisher is not fenced (and, when
/// writes are acknowledged once replicated, only while the cluster takes publishes); answers after replication when
/// `acknowledgement` says so.
public struct PrimaryWrites: WriteGate {
    let publisher: LogPublisher
    let acknowledgement: Acknowledgement

    public init(publisher: LogPublisher, acknowledgement: Acknowledgement) {
        self.publisher = publisher
        self.acknowledgement = acknowledgement
    }

    public func admit(namespace: String) throws {
        switch publisher.state {
        case .fenced(let why):
            throw ReplicationError(
                .fenced, "this node no longer takes writes to namespace \(publisher.stream.namespace): \(why)")
        case .stopped:
            throw ReplicationError(
                .unavailable, "replication of namespace \(publisher.stream.namespace) has stopped; nothing was written")
        case .unavailable(let why):
            guard case .replicated = acknowledgement else { return }
            throw ReplicationError(
                .unavailable,
                "the cluster cannot replicate writes to namespace \(publisher.stream.namespace) now (\(why)); nothing was written; retry later"
            )
        case .starting, .publishing:
            return
        }
    }

    public func acknowledged(through position: UInt64) async throws {
        guard case .replicated(let timeout) = acknowledgement else { return }
        try await publisher.waitUntilPublished(through: position, timeout: timeout)
    }
}
