import EventLog
import Foundation

/// Fence geotriggers: defined, listed and removed; each change an event. They fire from the
/// location reports the `RuleEngine` handles.
public struct Geotriggers: Sendable {
    let log: EventLog

    public init(log: EventLog) { self.log = log }

    /// Creates or replaces a geotrigger; returns whether anything changed. Areas it names must exist.
    @discardableResult
    public func define(
        _ geotrigger: Geotrigger, namespace: String = Names.defaultNamespace, actor: String = "system"
    ) async throws -> Bool {
        try Names.validate(namespace, as: "namespace")
        try Names.validate(geotrigger.id, as: "geotrigger id", maximumBytes: 256)
        return try await log.perform { scope in
            let areas = try scope.areas
            let missing = try geotrigger.areas.filter { try areas.area($0, namespace: namespace) == nil }
            guard missing.isEmpty else {
                throw MusterError(
                    .invalidArgument,
                    "fences.areas: no area \(missing.map { String(reflecting: $0) }.joined(separator: ", ")) in namespace \(namespace)"
                )
            }
            if try scope.geotriggers.geotrigger(geotrigger.id, namespace: namespace) == geotrigger { return false }
            try scope.append(
                AppendRequest(
                    namespace: namespace, stream: "geotriggers",
                    events: [GeotriggerDefined(geotrigger: geotrigger).newEvent(actor: actor)]))
            return true
        }
    }

    public func remove(id: String, namespace: String = Names.defaultNamespace, actor: String = "system") async throws {
        try await log.perform { scope in
            guard try scope.geotriggers.geotrigger(id, namespace: namespace) != nil else {
                throw MusterError(.notFound, "no geotrigger \(String(reflecting: id)) in namespace \(namespace)")
            }
            try scope.append(
                AppendRequest(
                    namespace: namespace, stream: "geotriggers",
                    events: [GeotriggerRemoved(id: id).newEvent(actor: actor)]))
        }
    }

    public func list(namespace: String = Names.defaultNamespace) throws -> [Geotrigger] {
        try log.read { try $0.geotriggers.geotriggers(namespace: namespace) }
    }

    public func geotrigger(id: String, namespace: String = Names.defaultNamespace) throws -> Geotrigger? {
        try log.read { try $0.geotriggers.geotrigger(id, namespace: namespace) }
    }
}
