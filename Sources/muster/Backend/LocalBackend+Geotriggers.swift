import Foundation
import Muster
import MusterWire

/// Geotriggers and their monitors on a data directory, through the calls the HTTP routes make.
extension LocalBackend {
    func putGeotrigger(id: String, document: JSONValue) async throws -> JSONValue {
        let geotriggers = Geotriggers(log: log)
        let geotrigger = try Geotrigger.read(document.jsonData(), id: id)
        try await geotriggers.define(geotrigger, namespace: namespace, actor: "cli")
        return geotrigger.json(monitor: try geotriggers.monitor(id: id, namespace: namespace).monitor)
    }

    func geotriggers() async throws -> [JSONValue] {
        try Geotriggers(log: log).monitored(namespace: namespace).map { $0.geotrigger.json(monitor: $0.monitor) }
    }

    func removeGeotrigger(id: String) async throws {
        try await Geotriggers(log: log).remove(id: id, namespace: namespace, actor: "cli")
    }

    func setGeotriggerMonitor(id: String, to monitor: GeotriggerMonitor.State) async throws -> GeotriggerMonitor {
        let geotriggers = Geotriggers(log: log)
        switch monitor {
        case .running: try await geotriggers.start(id: id, namespace: namespace, actor: "cli")
        case .stopped: try await geotriggers.stop(id: id, namespace: namespace, actor: "cli")
        }
        return try geotriggers.monitor(id: id, namespace: namespace)
    }
}
