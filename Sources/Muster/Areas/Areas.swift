import EventLog
import Foundation

/// The areas rules watch: defined, imported, listed and removed; each change an event.
public struct Areas: Sendable {
    let log: EventLog

    public init(log: EventLog) { self.log = log }

    /// What an import or definition did.
    public struct DefineResult: Sendable, Hashable, Encodable {
        /// Ids of areas created or changed.
        public var defined: [String]
        /// Ids of areas already stored exactly so (nothing written for them).
        public var unchanged: [String]
        public var warnings: [String]
    }

    /// Reads areas in the Ubudu web-API format and stores them, all or none.
    public func importAreas(
        _ data: Data, namespace: String = Names.defaultNamespace, actor: String = "system"
    ) async throws -> DefineResult {
        let document = try UbuduFormat.read(data)
        guard !document.areas.isEmpty else {
            throw MusterError(
                .invalidArgument, "the document holds no areas (expected u_geofences or u_beacons entries)")
        }
        var result = try await define(document.areas, namespace: namespace, actor: actor)
        result.warnings = document.warnings
        return result
    }

    /// Creates or replaces areas in one transaction; an area identical to the stored one is skipped.
    @discardableResult
    public func define(
        _ areas: [Area], namespace: String = Names.defaultNamespace, actor: String = "system"
    ) async throws -> DefineResult {
        try Names.validate(namespace, as: "namespace")
        for area in areas { try Names.validate(area.id, as: "area id", maximumBytes: 256) }
        return try await log.perform { scope in
            let state = try scope.areas
            var result = DefineResult(defined: [], unchanged: [], warnings: [])
            var events: [NewEvent] = []
            for area in areas {
                if try state.area(area.id, namespace: namespace) == area {
                    result.unchanged.append(area.id)
                } else {
                    result.defined.append(area.id)
                    events.append(AreaDefined(area: area).newEvent(actor: actor))
                }
            }
            if !events.isEmpty {
                try scope.append(AppendRequest(namespace: namespace, stream: "areas", events: events))
            }
            return result
        }
    }

    /// Removes an area; throws `.notFound` when there is none so named.
    public func remove(id: String, namespace: String = Names.defaultNamespace, actor: String = "system") async throws {
        try await log.perform { scope in
            guard try scope.areas.area(id, namespace: namespace) != nil else {
                throw MusterError(.notFound, "no area \(String(reflecting: id)) in namespace \(namespace)")
            }
            try scope.append(
                AppendRequest(
                    namespace: namespace, stream: "areas", events: [AreaRemoved(id: id).newEvent(actor: actor)]))
        }
    }

    /// Every area of the namespace, by id.
    public func list(namespace: String = Names.defaultNamespace) throws -> [Area] {
        try log.read { try $0.areas.areas(namespace: namespace) }
    }

    /// One area, or nil.
    public func area(id: String, namespace: String = Names.defaultNamespace) throws -> Area? {
        try log.read { try $0.areas.area(id, namespace: namespace) }
    }
}
