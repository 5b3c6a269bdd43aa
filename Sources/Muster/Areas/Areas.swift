import EventLog
import Foundation

/// The areas rules watch: defined, imported, listed and removed; each change an event.
///
/// An area is named by its kind and id: a geofence and a beacon region may share an id (seed 004).
public struct Areas: Sendable {
    let log: EventLog

    public init(log: EventLog) { self.log = log }

    /// What an import or definition did.
    public struct DefineResult: Sendable, Hashable, Codable {
        /// Ids of areas created or changed.
        public var defined: [String]
        /// Ids of areas already stored exactly so (nothing written for them).
        public var unchanged: [String]
        public var warnings: [String]
        /// Rules whose counts changed, so their counters start again.
        public var countsChanged: [AreaCountsChanged] = []
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

    /// Creates or replaces areas in one transaction; an area identical to the stored one is skipped. A rule
    /// whose counts changed is recorded as `AreaCountsChanged`, which restarts its counters.
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
                let stored = try state.area(area.identity, namespace: namespace)
                if stored == area {
                    result.unchanged.append(area.id)
                    continue
                }
                result.defined.append(area.id)
                events.append(AreaDefined(area: area).newEvent(actor: actor))
                let changes = stored.map { AreaCountsChanged.changes(from: $0, to: area) } ?? []
                result.countsChanged += changes
                events += changes.map { $0.newEvent(actor: actor) }
            }
            if !events.isEmpty {
                try scope.append(AppendRequest(namespace: namespace, stream: Streams.areas, events: events))
            }
            return result
        }
    }

    /// Removes an area; throws `.notFound` when there is none so named, and `.invalidArgument` when `kind` is
    /// nil and the id names both a geofence and a beacon region.
    public func remove(
        id: String, kind: Area.Kind? = nil, namespace: String = Names.defaultNamespace, actor: String = "system"
    ) async throws {
        try await log.perform { scope in
            let area = try scope.areas.resolve(id, kind: kind, namespace: namespace)
            try scope.append(
                AppendRequest(
                    namespace: namespace, stream: Streams.areas,
                    events: [AreaRemoved(area.identity).newEvent(actor: actor)]))
        }
    }

    /// Every area of the namespace, by kind then id.
    public func list(namespace: String = Names.defaultNamespace) throws -> [Area] {
        try log.read { try $0.areas.areas(namespace: namespace) }
    }

    /// The area of this kind and id, or nil.
    public func area(id: String, kind: Area.Kind, namespace: String = Names.defaultNamespace) throws -> Area? {
        try log.read { try $0.areas.area(Area.Identity(kind: kind, id: id), namespace: namespace) }
    }

    /// The area an id names: of `kind` when given, else the only area with that id. Throws `.notFound` when
    /// none, and `.invalidArgument` when the id names a geofence and a beacon region and no kind was given.
    public func resolve(id: String, kind: Area.Kind? = nil, namespace: String = Names.defaultNamespace) throws -> Area {
        try log.read { try $0.areas.resolve(id, kind: kind, namespace: namespace) }
    }
}
