import EventLog
import Forms
import Foundation
import Hummingbird
import Muster
import MusterWire

/// `/geotriggers`: fence geotriggers — defined and removed by administrators, read by every user.
struct GeotriggerController {
    let api: API

    var endpoints: RouteCollection<API.Context> {
        RouteCollection(context: API.Context.self)
            .put("geotriggers/:id", use: define)
            .get("geotriggers/:id", use: geotrigger)
            .get("geotriggers", use: list)
            .delete("geotriggers/:id", use: remove)
    }

    var geotriggers: Geotriggers { Geotriggers(log: api.log) }

    @Sendable func define(_ request: Request, context: API.Context) async throws -> EditedResponse<JSONText> {
        let caller = try context.administrator()
        let geotrigger = try Geotrigger.read(
            try await request.jsonBody(context: context), id: try context.parameters.require("id"))
        let changed = try await geotriggers.define(geotrigger, namespace: caller.namespace, actor: caller.username)
        return EditedResponse(status: changed ? .created : .ok, response: JSONText(geotrigger.json.jsonData()))
    }

    @Sendable func geotrigger(_ request: Request, context: API.Context) async throws -> JSONText {
        let caller = try context.caller()
        let id = try context.parameters.require("id")
        guard let geotrigger = try geotriggers.geotrigger(id: id, namespace: caller.namespace) else {
            throw APIError(
                .notFound, "not_found", "no geotrigger \(String(reflecting: id)) in namespace \(caller.namespace)")
        }
        return JSONText(geotrigger.json.jsonData())
    }

    @Sendable func list(_ request: Request, context: API.Context) async throws -> JSONText {
        let caller = try context.caller()
        return JSONText(JSONValue.array(try geotriggers.list(namespace: caller.namespace).map(\.json)).jsonData())
    }

    @Sendable func remove(_ request: Request, context: API.Context) async throws -> HTTPResponse.Status {
        let caller = try context.administrator()
        try await geotriggers.remove(
            id: try context.parameters.require("id"), namespace: caller.namespace, actor: caller.username)
        return .noContent
    }
}
