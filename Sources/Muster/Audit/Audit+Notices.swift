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
            var e = entry(
                .areaNotificationHanded,
                "rule \(handed.rule) of \(handed.areaKind) \(handed.area) (\(handed.trigger), \(handed.user)) handed "
                    + "\(what) to device \(handed.deviceId) as area notification \(id)")
            e.fill(user: handed.user, deviceId: handed.deviceId, area: handed.area, rule: handed.rule)
            e.title = handed.action == .notifyUser ? handed.title : nil
            return [e]
        }
        if let performed = try AreaNotificationPerformed.decode(event) {
            guard concerns(performed.user) else { return [] }
            let done =
                performed.messageId.map { "sent as message \($0.uuidString.lowercased())" }
                ?? "the server calls \(performed.serverURL ?? "")"
            var e = entry(
                .areaNotificationPerformed,
                "\(performed.user)'s device \(performed.deviceId) had area notification "
                    + "\(performed.noticeId.uuidString.lowercased()) performed: \(done)")
            let notice = notices[performed.noticeId]
            e.fill(user: performed.user, deviceId: performed.deviceId, area: notice?.area, rule: notice?.rule)
            e.messageId = performed.messageId
            return [e]
        }
        if let dismissed = try AreaNotificationDismissed.decode(event) {
            guard concerns(dismissed.user) else { return [] }
            var e = entry(
                .areaNotificationDismissed,
                "\(dismissed.user)'s device \(dismissed.deviceId) dismissed area notification "
                    + "\(dismissed.noticeId.uuidString.lowercased()): nothing sent")
            let notice = notices[dismissed.noticeId]
            e.fill(user: dismissed.user, deviceId: dismissed.deviceId, area: notice?.area, rule: notice?.rule)
            return [e]
        }
        if let trace = try DeviceTraceLoggingSet.decode(event) {
            guard concerns(trace.user) else { return [] }
            let choice =
                trace.enabled.map { "turned trace logging \($0 ? "on" : "off")" }
                ?? "left trace logging to the namespace's traceLogging setting"
            var e = entry(.deviceTraceLoggingSet, "\(trace.user)'s device \(trace.deviceId) \(choice)")
            e.fill(user: trace.user, deviceId: trace.deviceId, area: nil, rule: nil)
            return [e]
        }
        return nil
    }
}

extension AuditEntry {
    fileprivate mutating func fill(user: String, deviceId: String, area: String?, rule: String?) {
        self.user = user
        self.deviceId = deviceId
        self.area = area
        self.rule = rule
    }
}
