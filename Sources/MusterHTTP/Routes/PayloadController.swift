import Forms
import Foundation
import Hummingbird
import Muster
import MusterWire

/// `/payloads`: named payloads (ArsRCSPayload), stored by administrators, referred to by `payloadName`.
struct PayloadController: APIController {
    let api: API

    func addRoutes(to routes: some RouterMethods<API.Context>) {
        routes
            .put("payloads/:name", for: .administrator, use: put)
            .get("payloads", for: .user, use: list)
            .get("payloads/:name", for: .user, use: payload)
            .delete("payloads/:name", for: .administrator, use: remove)
    }

    @Sendable func put(_ request: Request, context: API.Context, caller: API.Caller) async throws -> StoredPayload {
        let body = try await request.jsonBody(context: context)
        _ = try JSONValue(json: body)  // not JSON at all: a 400, like every route's; a form's faults are 422
        let result = try await api.payloads.put(
            try context.pathParameter("name"), payload: body, namespace: caller.namespace,
            actor: caller.username)
        return StoredPayload(
            name: result.name, replaced: result.replaced, warnings: result.warnings.isEmpty ? nil : result.warnings)
    }

    /// Removes a named payload: new sends can no longer name it; messages sent by it before still show it.
    @Sendable func remove(_ request: Request, context: API.Context, caller: API.Caller) async throws
        -> HTTPResponse.Status
    {
        try await api.payloads.remove(
            try context.pathParameter("name"), namespace: caller.namespace, actor: caller.username)
        return .noContent
    }

    /// Every named payload of the namespace, by name.
    @Sendable func list(_ request: Request, context: API.Context, caller: API.Caller) async throws -> [NamedPayload] {
        try api.payloads.list(namespace: caller.namespace).map {
            NamedPayload(name: $0.name, payload: try JSONValue(json: $0.payload))
        }
    }

    @Sendable func payload(_ request: Request, context: API.Context, caller: API.Caller) async throws -> JSONText {
        let name = try context.pathParameter("name")
        guard let payload = try api.payloads.get(name, namespace: caller.namespace) else {
            throw APIError(.notFound, "not_found", "no named payload \(name)")
        }
        return JSONText(payload)
    }
}
