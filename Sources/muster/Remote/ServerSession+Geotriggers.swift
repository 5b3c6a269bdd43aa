import Foundation
import MusterClient
import MusterWire

/// Geotriggers and their monitors on a server: read by every user, changed by administrators; the server checks
/// the document as a data directory does.
extension ServerSession {
    func putGeotrigger(id: String, document: JSONValue) async throws -> JSONValue {
        try await call { try await $0.putGeotrigger(id: id, document) }
    }

    func geotriggers() async throws -> [JSONValue] { try await call { try await $0.geotriggers() } }

    func removeGeotrigger(id: String) async throws {
        try await call { try await $0.removeGeotrigger(id: id) }
    }

    func setGeotriggerMonitor(id: String, to monitor: GeotriggerMonitor.State) async throws -> GeotriggerMonitor {
        switch monitor {
        case .running: try await call { try await $0.startGeotriggerMonitor(id: id) }
        case .stopped: try await call { try await $0.stopGeotriggerMonitor(id: id) }
        }
    }
}
