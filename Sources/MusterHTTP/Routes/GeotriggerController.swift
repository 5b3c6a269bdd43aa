import EventLog
import Forms
import Foundation
import Hummingbird
import Muster
import MusterWire

/// `/geotriggers`: fence geotriggers — defined, removed, their monitors started and stopped by administrators,
/// read by every user (each with `"monitor":"running"|"stopped"`).
struct GeotriggerController: APIController {
    let api: API

    func addRoutes(to routes: some RouterMethods<API.Context>) {
        routes
            .put("geotriggers/:id", for: .administrator, use: define)
            .get("geotriggers/:id", for: .user, use: geotrigger)
            .get("geotriggers", for: .user, use: list)
            .delete("geotriggers/:id", for: .administrator, use: remove)
            .post("geotriggers/:id/start", for: .administrator, use: start)
            .post("geotriggers/:id/stop", for: .administrator, use: stop)
    }

    var geotriggers: Geotriggers { Geotriggers(log: api.log) }

    @Sendable func define(_ request: Request, context: API.Context, caller: API.Caller) async throws -> EditedResponse<
        JSONText
    > {
        let geotrigger = try Geotrigger.read(
            try await request.jsonBody(context: context), id: try context.pathParameter("id"))
        let changed = try await geotriggers.define(geotrigger, namespace: caller.namespace, actor: caller.username)
        let monitor = try geotriggers.monitor(id: geotrigger.id, namespace: caller.namespace)
        return EditedResponse(
            status: changed ? .created : .ok, response: JSONText(geotrigger.json(monitor: monitor.monitor).jsonData()))
    }

    @Sendable func geotrigger(_ request: Request, context: API.Context, caller: API.Caller) async throws -> JSONText {
        let id = try context.pathParameter("id")
        guard let geotrigger = try geotriggers.geotrigger(id: id, namespace: caller.namespace) else {
            throw APIError(
                .notFound, "not_found", "no geotrigger \(String(reflecting: id)) in namespace \(caller.namespace)")
        }
        let monitor = try geotriggers.monitor(id: id, namespace: caller.namespace)
        return JSONText(geotrigger.json(monitor: monitor.monitor).jsonData())
    }

    @Sendable func list(_ request: Request, context: API.Context, caller: API.Caller) async throws -> JSONText {
        let listed = try geotriggers.monitored(namespace: caller.namespace)
        return JSONText(JSONValue.array(listed.map { $0.geotrigger.json(monitor: $0.monitor) }).jsonData())
    }

    @Sendable func remove(_ request: Request, context: API.Context, caller: API.Caller) async throws
        -> HTTPResponse.Status
    {
        try await geotriggers.remove(
            id: try context.pathParameter("id"), namespace: caller.namespace, actor: caller.username)
        return .noContent
    }

    /// Starts the geotrigger's monitor (again); answers what it is doing now.
    @Sendable func start(_ request: Request, context: API.Context, caller: API.Caller) async throws
        -> GeotriggerMonitor
    {
        let id = try context.pathParameter("id")
        try await geotriggers.start(id: id, namespace: caller.namespace, actor: caller.username)
        return try geotriggers.monitor(id: id, namespace: caller.namespace)
    }

    /// Stops the geotrigger's monitor; answers what it is doing now.
    @Sendable func stop(_ request: Request, context: API.Context, caller: API.Caller) async throws
        -> GeotriggerMonitor
    {
        let id = try context.pathParameter("id")
        try await geotriggers.stop(id: id, namespace: caller.namespace, actor: caller.username)
        return try geotriggers.monitor(id: id, namespace: caller.namespace)
    }
}
