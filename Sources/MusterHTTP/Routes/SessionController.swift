import Foundation
import Hummingbird
import Muster
import MusterWire

/// `/sessions`: where a user is logged in, and ending a session from elsewhere (a lost phone) — one's own, or for an
/// administrator anyone's of the namespace.
struct SessionController: APIController {
    let api: API

    func addRoutes(to routes: some RouterMethods<API.Context>) {
        routes
            .get("sessions", for: .user, use: list)
            .delete("sessions/:id", for: .user, use: end)
    }

    /// The open sessions of `?user=` (the caller when left out), or with `?all=true` of every user of the namespace;
    /// another user's and everyone's for administrators only.
    @Sendable func list(_ request: Request, context: API.Context, caller: API.Caller) async throws -> [OpenSession] {
        let all = try request.query("all", "true or false") { Bool($0) } ?? false
        let named = request.uri.queryParameters.get("user").map { String($0) }
        if all, named != nil {
            throw APIError(
                .badRequest, "bad_request", "name a user or ask for all of them, not both",
                fields: [.init(field: "all", message: "leave it out with user")])
        }
        let user = all ? nil : named ?? caller.username
        guard caller.isAdmin || user == caller.username else {
            throw APIError(
                .forbidden, "forbidden",
                "only an administrator may list \(all ? "every user's" : "another user's") sessions",
                fields: [.init(field: all ? "all" : "user", message: "leave it out for your own")])
        }
        if let user, try api.directory.user(user, namespace: caller.namespace) == nil {
            throw APIError(
                .notFound, "not_found", "no user named \(user) in namespace \(caller.namespace)",
                fields: [.init(field: "user", message: "expected a user of the namespace (GET /api/v1/users)")])
        }
        return try api.sessions.open(user: user, namespace: caller.namespace).map {
            var session = $0
            session.isCurrent = session.sessionId == caller.sessionId
            return session
        }
    }

    /// Ends one session: one's own (from another of them), or for an administrator anyone's of the namespace.
    @Sendable func end(_ request: Request, context: API.Context, caller: API.Caller) async throws
        -> HTTPResponse.Status
    {
        guard let id = context.parameters.get("id", as: UUID.self) else {
            throw APIError(
                .badRequest, "bad_request", "session id \(context.parameters.get("id") ?? "") is not a UUID",
                fields: [.init(field: "id", message: "expected a session id from GET /api/v1/sessions")])
        }
        try await api.sessions.end(
            id, of: caller.isAdmin ? nil : caller.username, namespace: caller.namespace, actor: caller.username)
        return .noContent
    }
}
