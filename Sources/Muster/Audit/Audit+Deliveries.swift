import EventLog
import Foundation
import MusterWire

extension Audit.Scan {
    /// Every attempt to push a message (or its withdrawal, or a location request) to a device: delivered, failed
    /// (retried or not) and expired, and each location request; nil for other events.
    func deliveryEntries(
        for event: RecordedEvent, _ entry: (AuditEntry.What, String) -> AuditEntry
    ) throws -> [AuditEntry]? {
        if let delivered = try PushDelivered.decode(event) {
            guard concerns(delivered.user) else { return [] }
            let receipt = delivered.providerId.map { ", receipt \($0)" } ?? ""
            return [
                entry(
                    .pushDelivered,
                    "\(pushed(delivered.messageId, withdrawal: delivered.carried == .withdrawal)) delivered to \(delivered.user)'s device \(delivered.deviceId) "
                        + "through \(delivered.source) on attempt \(delivered.attempt) (\(delivered.carried.rawValue)\(receipt))"
                ).about(
                    user: delivered.user, deviceId: delivered.deviceId, messageId: delivered.messageId,
                    title: titles[delivered.messageId])
            ]
        }
        if let failed = try PushFailed.decode(event) {
            guard concerns(failed.user) else { return [] }
            let status = failed.status.map { "status \($0), " } ?? ""
            let next = failed.nextAttemptAt.map { "retried at \(Timestamp.iso8601(microseconds: $0))" } ?? "not retried"
            return [
                entry(
                    .pushFailed,
                    "attempt \(failed.attempt) of \(pushed(failed.messageId)) to \(failed.user)'s device \(failed.deviceId) "
                        + "through \(failed.source) failed (\(status)\(failed.reason)); \(next)"
                ).about(
                    user: failed.user, deviceId: failed.deviceId, messageId: failed.messageId,
                    title: titles[failed.messageId], reason: failed.reason)
            ]
        }
        if let asked = try LocationRequested.decode(event) {
            guard concerns(asked.user) else { return [] }
            return [
                entry(
                    .locationRequested,
                    "\(event.actor) asked \(asked.user)'s phones where they are (location request "
                        + "\(asked.requestId.uuidString.lowercased())\(asked.reason.map { ": \($0)" } ?? ""))"
                ).about(user: asked.user, messageId: asked.requestId, reason: asked.reason)
            ]
        }
        if let expired = try PushExpired.decode(event) {
            guard concerns(expired.user) else { return [] }
            return [
                entry(
                    .pushExpired,
                    "\(pushed(expired.messageId)) to \(expired.user)'s device \(expired.deviceId) expired after "
                        + "\(expired.attempts) attempt\(expired.attempts == 1 ? "" : "s")"
                ).about(
                    user: expired.user, deviceId: expired.deviceId, messageId: expired.messageId,
                    title: titles[expired.messageId])
            ]
        }
        return nil
    }

    /// What a push of `id` was: "message <id>" with its title, or "the withdrawal of message <id>" — as a delivery's
    /// outcome says (`withdrawal`), else when the scan saw the message withdrawn (then only a withdrawal is pushed).
    func pushed(_ id: UUID, withdrawal: Bool? = nil) -> String {
        (withdrawal ?? withdrawn.contains(id) ? "the withdrawal of " : "") + message(id)
    }

    /// "message <id>", with its title when the scan saw it sent.
    func message(_ id: UUID) -> String {
        "message \(id.uuidString.lowercased())" + (titles[id].map { " (\(String(reflecting: $0)))" } ?? "")
    }
}
