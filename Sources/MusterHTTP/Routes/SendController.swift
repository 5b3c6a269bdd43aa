import Foundation
import Hummingbird
import Muster
import MusterWire

/// `/sends` and `/sends/{id}`: the namespace's sends and where their messages stand, for administrators — who has
/// answered a roll call, and who not yet.
struct SendController: APIController {
    let api: API

    func addRoutes(to routes: some RouterMethods<API.Context>) {
        routes
            .get("sends", for: .administrator, use: list)
            .get("sends/:id", for: .administrator, use: show)
    }

    /// The newest sends, at most `limit` (default 50, 1 to 1,000), each with its counts.
    @Sendable func list(_ request: Request, context: API.Context, caller: API.Caller) async throws -> [SendOverview] {
        let limit = try request.query("limit", "a number from 1 to 1000") {
            Int($0).flatMap { (1...1000) ~= $0 ? $0 : nil }
        }
        return try api.notifications.sends(namespace: caller.namespace, limit: limit ?? 50)
    }

    /// One send with each recipient's message and where it stands; 404 for no send of that id in the namespace.
    @Sendable func show(_ request: Request, context: API.Context, caller: API.Caller) async throws -> SendOverview {
        guard let id = context.parameters.get("id", as: UUID.self) else {
            throw APIError(
                .badRequest, "bad_request", "send id \(context.parameters.get("id") ?? "") is not a UUID",
                fields: [.init(field: "id", message: "expected a UUID such as 3f2c1a9e-…, a send's sendId")])
        }
        guard let send = try api.notifications.send(id, namespace: caller.namespace) else {
            throw APIError(
                .notFound, "not_found", "no send \(id.uuidString.lowercased()) in namespace \(caller.namespace)",
                fields: [.init(field: "id", message: "no such send")])
        }
        return send
    }
}
