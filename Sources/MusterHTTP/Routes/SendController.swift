import Foundation
import Hummingbird
import Muster
import MusterWire

/// `/sends` and `/sends/{id}`: the namespace's sends and where their messages stand, for administrators — who has
/// answered a roll call, who not yet — and the withdrawal of the rest in one step.
struct SendController: APIController {
    let api: API

    func addRoutes(to routes: some RouterMethods<API.Context>) {
        routes
            .get("sends", for: .administrator, use: list)
            .get("sends/:id", for: .administrator, use: show)
            .post("sends/:id/withdraw", for: .administrator, use: withdraw)
    }

    /// The newest sends, at most `limit` (default 50, 1 to 1,000), each with its counts; with `before`, those older
    /// than that send.
    @Sendable func list(_ request: Request, context: API.Context, caller: API.Caller) async throws -> [SendOverview] {
        let limit = try request.query("limit", "a number from 1 to 1000") {
            Int($0).flatMap { (1...1000) ~= $0 ? $0 : nil }
        }
        let before = try request.query("before", "a sendId (a UUID)", UUID.init(uuidString:))
        return try api.notifications.sends(namespace: caller.namespace, before: before, limit: limit ?? 50)
    }

    /// One send with a page of its recipients' messages and where each stands (`state`, `from`, `limit`); 404 for
    /// no send of that id in the namespace.
    @Sendable func show(_ request: Request, context: API.Context, caller: API.Caller) async throws -> SendOverview {
        let id = try Self.sendId(context)
        let state = try request.query("state", "pending, answered or withdrawn", SendOverview.State.init(rawValue:))
        let from = try request.query("from", "a recipient's index in the send, from 0") {
            Int($0).flatMap { $0 >= 0 ? $0 : nil }
        }
        let limit = try request.query("limit", "a number from 1 to 10000") {
            Int($0).flatMap { (1...10_000) ~= $0 ? $0 : nil }
        }
        guard
            let send = try api.notifications.send(
                id, namespace: caller.namespace, state: state, from: from ?? 0, limit: limit ?? 1000)
        else { throw Self.noSend(id, caller) }
        return send
    }

    /// Withdraws every message of the send not answered yet, in one append; answers how many.
    @Sendable func withdraw(_ request: Request, context: API.Context, caller: API.Caller) async throws
        -> SendWithdrawal
    {
        let id = try Self.sendId(context)
        guard
            let withdrawn = try await api.notifications.withdrawPending(
                ofSend: id, namespace: caller.namespace, actor: caller.username)
        else { throw Self.noSend(id, caller) }
        return SendWithdrawal(sendId: id, withdrawn: withdrawn)
    }

    private static func sendId(_ context: API.Context) throws -> UUID {
        guard let id = context.parameters.get("id", as: UUID.self) else {
            throw APIError(
                .badRequest, "bad_request", "send id \(context.parameters.get("id") ?? "") is not a UUID",
                fields: [.init(field: "id", message: "expected a UUID such as 3f2c1a9e-…, a send's sendId")])
        }
        return id
    }

    private static func noSend(_ id: UUID, _ caller: API.Caller) -> APIError {
        APIError(
            .notFound, "not_found", "no send \(id.uuidString.lowercased()) in namespace \(caller.namespace)",
            fields: [.init(field: "id", message: "no such send")])
    }
}
