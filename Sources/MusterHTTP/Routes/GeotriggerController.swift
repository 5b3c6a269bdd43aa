import EventLog
import Forms
import Foundation
import Hummingbird
import Muster
import MusterWire

/// `/geotriggers`: fence geotriggers — defined and removed by administrators, read by every user.
struct GeotriggerController: APIController {
    let api: API

    func addRoutes(to routes: some RouterMethods<API.Context>) {
        routes
            .put("geotriggers/:id", for: .administrator, use: define)
            .get("geotriggers/:id", for: .user, use: geotrigger)
            .get("geotriggers", for: .user, use: list)
            .delete("geotriggers/:id", for: .administrator, use: remove)
    }

    var geotriggers: Geotriggers { Geotriggers(log: api.log) }

    @Sendable func define(_ request: Request, context: API.Context, caller: API.Caller) async throws -> EditedResponse<
        JSONText
    > {
        let geotrigger = try Geotrigger.read(
            try await request.jsonBody(context: context), id: try context.parameters.require("id"))
        let changed = try await geotriggers.define(geotrigger, namespace: caller.namespace, actor: caller.username)
        return EditedResponse(status: changed ? .created : .ok, response: JSONText(geotrigger.json.jsonData()))
    }

    @Sendable func geotrigger(_ request: Request, context: API.Context, caller: API.Caller) async throws -> JSONText {
        let id = try context.parameters.require("id")
        guard let geotrigger = try geotriggers.geotrigger(id: id, namespace: caller.namespace) else {
            throw APIError(
                .notFound, "not_found", "no geotrigger \(String(reflecting: id)) in namespace \(caller.namespace)")
        }
        return JSONText(geotrigger.json.jsonData())
    }

    @Sendable func list(_ request: Request, context: API.Context, caller: API.Caller) async throws -> JSONText {
        return JSONText(JSONValue.array(try geotriggers.list(namespace: caller.namespace).map(\.json)).jsonData())
    }

    @Sendable func remove(_ request: Request, context: API.Context, caller: API.Caller) async throws
        -> HTTPResponse.Status
    {
        try await geotriggers.remove(
            id: try context.parameters.require("id"), namespace: caller.namespace, actor: caller.username)
        return .noContent
    }
}
