import EventLog
import Foundation
import MusterWire

extension Audit.Scan {
    /// Area notifications handed to devices' applications, and performed or dismissed by them, and devices'
    /// trace logging choices; nil for other events.
    mutating func noticeEntries(
        for event: RecordedEvent, _ entry: (AuditEntry.What, String) -> AuditEntry
    ) throws -> [AuditEntry]? {
        if let handed = try AreaNotificationHanded.decode(event) {
            notices[handed.noticeId] = (handed.area, handed.rule)
            guard concerns(handed.user) else { return [] }
            let id = handed.noticeId.uuidString.lowercased()
            let what =
                handed.action == .notifyUser
                ? "the notification \(String(reflecting: handed.body))"
                : "the server notification \(handed.serverURL ?? "")"
            return [
                entry(
                    .areaNotificationHanded,
                    "rule \(handed.rule) of \(handed.areaKind) \(handed.area) (\(handed.trigger), \(handed.user)) handed "
                        + "\(what) to device \(handed.deviceId) as area notification \(id)"
                ).about(
                    user: handed.user, deviceId: handed.deviceId,
                    title: handed.action == .notifyUser ? handed.title : nil,
                    area: handed.area, rule: handed.rule)
            ]
        }
        if let performed = try AreaNotificationPerformed.decode(event) {
            guard concerns(performed.user) else { return [] }
            let done =
                performed.messageId.map { "sent as message \($0.uuidString.lowercased())" }
                ?? "the server calls \(performed.serverURL ?? "")"
            let notice = notices[performed.noticeId]
            return [
                entry(
                    .areaNotificationPerformed,
                    "\(performed.user)'s device \(performed.deviceId) had area notification "
                        + "\(performed.noticeId.uuidString.lowercased()) performed: \(done)"
                ).about(
                    user: performed.user, deviceId: performed.deviceId, messageId: performed.messageId,
                    area: notice?.area, rule: notice?.rule)
            ]
        }
        if let dismissed = try AreaNotificationDismissed.decode(event) {
            guard concerns(dismissed.user) else { return [] }
            let notice = notices[dismissed.noticeId]
            return [
                entry(
                    .areaNotificationDismissed,
                    "\(dismissed.user)'s device \(dismissed.deviceId) dismissed area notification "
                        + "\(dismissed.noticeId.uuidString.lowercased()): nothing sent"
                ).about(user: dismissed.user, deviceId: dismissed.deviceId, area: notice?.area, rule: notice?.rule)
            ]
        }
        if let trace = try DeviceTraceLoggingSet.decode(event) {
            guard concerns(trace.user) else { return [] }
            let choice =
                trace.enabled.map { "turned trace logging \($0 ? "on" : "off")" }
                ?? "left trace logging to the namespace's traceLogging setting"
            return [
                entry(.deviceTraceLoggingSet, "\(trace.user)'s device \(trace.deviceId) \(choice)")
                    .about(user: trace.user, deviceId: trace.deviceId)
            ]
        }
        return nil
    }
}
