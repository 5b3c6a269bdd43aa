import Foundation
import MusterWire

extension AuditEntry {
    /// The entry with the members that say whom and what it concerns; a member not given is left as it is.
    func about(
        user: String? = nil, deviceId: String? = nil, messageId: UUID? = nil, title: String? = nil,
        submitValue: Int? = nil, group: String? = nil, document: String? = nil, sessionId: UUID? = nil,
        area: String? = nil, rule: String? = nil, geotrigger: String? = nil, fired: Bool? = nil,
        reason: String? = nil
    ) -> AuditEntry {
        var entry = self
        entry.user = user ?? entry.user
        entry.deviceId = deviceId ?? entry.deviceId
        entry.messageId = messageId ?? entry.messageId
        entry.title = title ?? entry.title
        entry.submitValue = submitValue ?? entry.submitValue
        entry.group = group ?? entry.group
        entry.document = document ?? entry.document
        entry.sessionId = sessionId ?? entry.sessionId
        entry.area = area ?? entry.area
        entry.rule = rule ?? entry.rule
        entry.geotrigger = geotrigger ?? entry.geotrigger
        entry.fired = fired ?? entry.fired
        entry.reason = reason ?? entry.reason
        return entry
    }
}
