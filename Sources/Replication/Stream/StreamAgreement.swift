import EventLog
import NATS

extension NamespaceStream {
    /// Whether the stream holds, at `position`, the event `log` holds there (by the event id the message carries): a
    /// log and a stream that agree at a position agree up to it, since each was only ever appended in order.
    func agrees(with log: EventLog, at position: UInt64, over connection: NATSConnection) async throws -> Bool {
        let message = try await connection.message(stream: name, sequence: position)
        let event = try log.read { try $0.event(at: position) }
        guard let message, let event else { return false }
        return message.headers["Nats-Msg-Id"] == event.id.uuidString
    }
}

extension NamespaceStream {
    /// Why `log` cannot follow the stream — it holds another event than the stream at a position both hold — or nil
    /// when one is a prefix of the other (or either is empty, or the stream was never made). Such a log is set aside
    /// and the namespace rebuilt from the stream (`muster serve --cluster` does it at start).
    public func divergence(of log: EventLog, over connection: NATSConnection) async throws -> String? {
        let head = log.head
        guard head > 0 else { return nil }
        let last: UInt64
        do {
            last = try await connection.streamInfo(name).lastSequence
        } catch let error as NATSError where error.code == .notFound {
            return nil
        }
        let position = min(head, last)
        guard position > 0, try await !agrees(with: log, at: position, over: connection) else { return nil }
        return
            "this node's log of namespace \(namespace) holds another event at position \(position) than the stream \(name)"
    }
}
