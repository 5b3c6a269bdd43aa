import Foundation
import MusterClient

extension Audit {
    /// `GET /api/v1/audit` (administrators): the entries of the login's namespace, printed as the local verb
    /// prints them (the time as the server wrote it, to the millisecond).
    func run(on session: ServerSession) async throws {
        try session.requireNamespace(namespace)
        let entries = try await session.call {
            try await $0.audit(
                user: user, deviceId: deviceId, since: since.flatMap(Self.parse), area: area, rule: rule)
        }
        var out = StandardOutput()
        do {
            if !json { try out.line(Self.render(Self.header)) }
            for entry in entries {
                if json {
                    try out.line(Array(entry.jsonData()))
                } else {
                    try out.line(
                        Self.render(
                            [
                                entry["position"]?.intValue.map(String.init), entry["time"]?.stringValue,
                                entry["what"]?.stringValue, entry["detail"]?.stringValue,
                            ].map { $0 ?? "-" }))
                }
            }
            try out.flush()
        } catch {
            // StandardOutput.Closed: the reader went away (`| head`).
        }
    }
}
