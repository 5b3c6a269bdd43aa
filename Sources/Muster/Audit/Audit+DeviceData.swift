import EventLog
import MusterWire

extension Audit.Scan {
    /// What an MQTT device published, and a reply of it refused; nil for other events.
    func deviceDataEntries(
        for event: RecordedEvent, _ entry: (AuditEntry.What, String) -> AuditEntry
    ) throws -> [AuditEntry]? {
        if let refused = try ReplyRefused.decode(event) {
            guard concerns(refused.user) else { return [] }
            return [
                entry(
                    .replyRefused,
                    "\(refused.user)'s device \(refused.deviceId) replied"
                        + (refused.messageId.map { " to message \($0.uuidString.lowercased())" } ?? "")
                        + " (position \(refused.report)); not taken as a response: \(refused.reason)"
                ).about(
                    user: refused.user, deviceId: refused.deviceId, messageId: refused.messageId,
                    reason: refused.reason)
            ]
        }
        guard let data = try DeviceDataReported.decode(event) else { return nil }
        guard concerns(data.user) else { return [] }
        return [
            entry(
                .deviceDataReported,
                "\(data.user)'s device \(data.deviceId) published \(data.body.count) bytes on \(data.topic)"
                    + (data.document.map { ", a picture stored as \($0)" } ?? "")
            ).about(user: data.user, deviceId: data.deviceId, document: data.document)
        ]
    }
}
