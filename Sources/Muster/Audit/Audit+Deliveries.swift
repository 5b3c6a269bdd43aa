import EventLog
import Foundation
import MusterWire

extension Audit.Scan {
    /// Every attempt to push a message (or a location request) to a device: delivered, failed (retried or not) and
    /// expired, and each location request; nil for other events.
    func deliveryEntries(
        for event: RecordedEvent, _ entry: (AuditEntry.What, String) -> AuditEntry
    ) throws -> [AuditEntry]? {
        if let delivered = try PushDelivered.decode(event) {
            guard concerns(delivered.user) else { return [] }
            let receipt = delivered.providerId.map { ", receipt \($0)" } ?? ""
            var e = entry(
                .pushDelivered,
                "\(message(delivered.messageId)) delivered to \(delivered.user)'s device \(delivered.deviceId) "
                    + "through \(delivered.source) on attempt \(delivered.attempt) (\(delivered.carried.rawValue)\(receipt))"
            )
            e.fill(user: delivered.user, messageId: delivered.messageId, deviceId: delivered.deviceId, title: title)
            return [e]
        }
        if let failed = try PushFailed.decode(event) {
            guard concerns(failed.user) else { return [] }
            let status = failed.status.map { "status \($0), " } ?? ""
            let next = failed.nextAttemptAt.map { "retried at \(Timestamp.iso8601(microseconds: $0))" } ?? "not retried"
            var e = entry(
                .pushFailed,
                "attempt \(failed.attempt) of \(message(failed.messageId)) to \(failed.user)'s device \(failed.deviceId) "
                    + "through \(failed.source) failed (\(status)\(failed.reason)); \(next)")
            e.fill(user: failed.user, messageId: failed.messageId, deviceId: failed.deviceId, title: title)
            e.reason = failed.reason
            return [e]
        }
        if let asked = try LocationRequested.decode(event) {
            guard concerns(asked.user) else { return [] }
            var e = entry(
                .locationRequested,
                "\(event.actor) asked \(asked.user)'s phones where they are (location request "
                    + "\(asked.requestId.uuidString.lowercased())\(asked.reason.map { ": \($0)" } ?? ""))")
            e.user = asked.user
            e.messageId = asked.requestId
            e.reason = asked.reason
            return [e]
        }
        if let expired = try PushExpired.decode(event) {
            guard concerns(expired.user) else { return [] }
            var e = entry(
                .pushExpired,
                "\(message(expired.messageId)) to \(expired.user)'s device \(expired.deviceId) expired after "
                    + "\(expired.attempts) attempt\(expired.attempts == 1 ? "" : "s")")
            e.fill(user: expired.user, messageId: expired.messageId, deviceId: expired.deviceId, title: title)
            return [e]
        }
        return nil
    }

    /// "message <id>", with its title when the scan saw it sent.
    private func message(_ id: UUID) -> String {
        "message \(id.uuidString.lowercased())" + (titles[id].map { " (\(String(reflecting: $0)))" } ?? "")
    }

    private func title(_ id: UUID) -> String? { titles[id] }
}

extension AuditEntry {
    fileprivate mutating func fill(user: String, messageId: UUID, deviceId: String, title: (UUID) -> String?) {
        self.user = user
        self.messageId = messageId
        self.deviceId = deviceId
        self.title = title(messageId)
    }
}
