import EventLog
import Foundation
import MusterWire

/// Fence geotriggers: defined, listed and removed, their monitors started and stopped; each change an
/// event. A geotrigger's monitor (seed 003: "created with the geotrigger, handles monitoring and
/// reporting") runs from its definition on; while it runs, the geotrigger fires from the location
/// reports the `RuleEngine` handles, and its message expression cannot be changed.
public struct Geotriggers: Sendable {
    let log: EventLog

    public init(log: EventLog) { self.log = log }

    /// Creates or replaces a geotrigger; returns whether anything changed. Areas it names must exist; a
    /// replacement with another message expression needs the monitor stopped (`.conflict` otherwise).
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
            let stored = try scope.geotriggers.geotrigger(geotrigger.id, namespace: namespace)
            if stored == geotrigger { return false }
            if let stored, stored.messageExpression != geotrigger.messageExpression,
                try scope.geotriggers.isRunning(geotrigger.id, namespace: namespace)
            {
                throw MusterError(
                    .conflict,
                    "messageExpression: cannot change while the monitor of geotrigger \(geotrigger.id) runs; stop it first (muster geotriggers stop \(geotrigger.id), or POST /api/v1/geotriggers/\(geotrigger.id)/stop)",
                    field: "messageExpression")
            }
            try scope.append(
                AppendRequest(
                    namespace: namespace, stream: Streams.geotriggers,
                    events: [GeotriggerDefined(geotrigger: geotrigger).newEvent(actor: actor)]))
            return true
        }
    }

    public func remove(id: String, namespace: String = Names.defaultNamespace, actor: String = "system") async throws {
        _ = try await log.perform { scope in
            try scope.remove(
                try scope.geotriggers.geotrigger(id, namespace: namespace),
                else: "no geotrigger \(String(reflecting: id)) in namespace \(namespace)",
                recording: GeotriggerRemoved(id: id), in: Streams.geotriggers, namespace: namespace, actor: actor)
        }
    }

    /// Starts the monitor of geotrigger `id`: its crossings notify again. Returns whether it was stopped.
    @discardableResult
    public func start(id: String, namespace: String = Names.defaultNamespace, actor: String = "system") async throws
        -> Bool
    {
        try await setMonitor(id: id, running: true, namespace: namespace, actor: actor)
    }

    /// Stops the monitor of geotrigger `id`: its crossings are recorded as not notified ("the monitor is
    /// stopped"). Returns whether it was running.
    @discardableResult
    public func stop(id: String, namespace: String = Names.defaultNamespace, actor: String = "system") async throws
        -> Bool
    {
        try await setMonitor(id: id, running: false, namespace: namespace, actor: actor)
    }

    private func setMonitor(id: String, running: Bool, namespace: String, actor: String) async throws -> Bool {
        try await log.perform { scope in
            let state = try scope.geotriggers
            guard try state.geotrigger(id, namespace: namespace) != nil else {
                throw MusterError(.notFound, "no geotrigger \(String(reflecting: id)) in namespace \(namespace)")
            }
            guard try state.isRunning(id, namespace: namespace) != running else { return false }
            let event =
                running
                ? GeotriggerMonitorStarted(id: id).newEvent(actor: actor)
                : GeotriggerMonitorStopped(id: id).newEvent(actor: actor)
            try scope.append(AppendRequest(namespace: namespace, stream: Streams.geotriggers, events: [event]))
            return true
        }
    }

    /// What the monitor of geotrigger `id` is doing; `.notFound` when there is no such geotrigger.
    public func monitor(id: String, namespace: String = Names.defaultNamespace) throws -> GeotriggerMonitor {
        try log.read { snapshot in
            let state = try snapshot.geotriggers
            guard try state.geotrigger(id, namespace: namespace) != nil else {
                throw MusterError(.notFound, "no geotrigger \(String(reflecting: id)) in namespace \(namespace)")
            }
            return GeotriggerMonitor(
                id: id, monitor: try state.isRunning(id, namespace: namespace) ? .running : .stopped)
        }
    }

    /// Every geotrigger of a namespace, by id, with what its monitor is doing.
    public func monitored(namespace: String = Names.defaultNamespace) throws -> [(
        geotrigger: Geotrigger, monitor: GeotriggerMonitor.State
    )] {
        try log.read { snapshot in
            let state = try snapshot.geotriggers
            return try state.geotriggers(namespace: namespace).map {
                ($0, try state.isRunning($0.id, namespace: namespace) ? .running : .stopped)
            }
        }
    }

    public func list(namespace: String = Names.defaultNamespace) throws -> [Geotrigger] {
        try log.read { try $0.geotriggers.geotriggers(namespace: namespace) }
    }

    public func geotrigger(id: String, namespace: String = Names.defaultNamespace) throws -> Geotrigger? {
        try log.read { try $0.geotriggers.geotrigger(id, namespace: namespace) }
    }
}
