import EventLog
import MusterWire

extension Audit.Scan {
    /// What an MQTT device published; nil for other events.
    func deviceDataEntries(
        for event: RecordedEvent, _ entry: (AuditEntry.What, String) -> AuditEntry
    ) throws -> [AuditEntry]? {
        guard let data = try DeviceDataReported.decode(event) else { return nil }
        guard concerns(data.user) else { return [] }
        var e = entry(
            .deviceDataReported,
            "\(data.user)'s device \(data.deviceId) published \(data.body.count) bytes on \(data.topic)"
                + (data.document.map { ", a picture stored as \($0)" } ?? ""))
        e.user = data.user
        e.deviceId = data.deviceId
        e.document = data.document
        return [e]
    }
}
