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
            let areas = try scope.projection(AreasProjection.name)
            let missing = try geotrigger.areas.filter { try AreasProjection.area($0, namespace, areas) == nil }
            guard missing.isEmpty else {
                throw MusterError(
                    .invalidArgument,
                    "fences.areas: no area \(missing.map { String(reflecting: $0) }.joined(separator: ", ")) in namespace \(namespace)"
                )
            }
            let state = try scope.projection(GeotriggersProjection.name)
            if let stored = try state.get("geotriggers", DirectoryProjection.key(namespace, geotrigger.id)) {
                let current = try stored.withUnsafeBytes { buffer in
                    var reader = ByteReader(buffer)
                    return try GeotriggerDefined(from: &reader).geotrigger
                }
                if current == geotrigger { return false }
            }
            try scope.append(
                AppendRequest(
                    namespace: namespace, stream: "geotriggers",
                    events: [GeotriggerDefined(geotrigger: geotrigger).newEvent(actor: actor)]))
            return true
        }
    }

    public func remove(id: String, namespace: String = Names.defaultNamespace, actor: String = "system") async throws {
        try await log.perform { scope in
            let state = try scope.projection(GeotriggersProjection.name)
            guard try state.get("geotriggers", DirectoryProjection.key(namespace, id)) != nil else {
                throw MusterError(.notFound, "no geotrigger \(String(reflecting: id)) in namespace \(namespace)")
            }
            try scope.append(
                AppendRequest(
                    namespace: namespace, stream: "geotriggers",
                    events: [GeotriggerRemoved(id: id).newEvent(actor: actor)]))
        }
    }

    public func list(namespace: String = Names.defaultNamespace) throws -> [Geotrigger] {
        try log.read { try GeotriggersProjection.all(namespace, $0.projection(GeotriggersProjection.name)) }
    }

    public func geotrigger(id: String, namespace: String = Names.defaultNamespace) throws -> Geotrigger? {
        try list(namespace: namespace).first { $0.id == id }
    }
}
