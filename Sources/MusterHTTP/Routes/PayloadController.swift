import Forms
import Foundation
import Hummingbird
import Muster
import MusterWire

/// `/payloads`: named payloads (ArsRCSPayload), stored by administrators, referred to by `payloadName`.
struct PayloadController {
    let api: API

    var endpoints: RouteCollection<API.Context> {
        RouteCollection(context: API.Context.self)
            .put("payloads/:name", use: put)
            .get("payloads/:name", use: payload)
    }

    @Sendable func put(_ request: Request, context: API.Context) async throws -> StoredPayload {
        let caller = try context.administrator()
        let body = try await request.jsonBody(context: context)
        let result = try await api.payloads.put(
            try context.parameters.require("name"), payload: body, namespace: caller.namespace,
            actor: caller.username)
        return StoredPayload(name: result.name, replaced: result.replaced)
    }

    @Sendable func payload(_ request: Request, context: API.Context) async throws -> JSONText {
        let caller = try context.caller()
        let name = try context.parameters.require("name")
        guard let payload = try api.payloads.get(name, namespace: caller.namespace) else {
            throw APIError(.notFound, "not_found", "no named payload \(name)")
        }
        return JSONText(payload)
    }
}
