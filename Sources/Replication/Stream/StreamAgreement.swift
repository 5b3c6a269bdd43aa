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
