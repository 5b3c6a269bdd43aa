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

    /// The open sessions of `?user=` (the caller when left out); another user's for administrators only.
    @Sendable func list(_ request: Request, context: API.Context, caller: API.Caller) async throws -> [OpenSession] {
        let user = request.uri.queryParameters.get("user").map { String($0) } ?? caller.username
        guard caller.isAdmin || user == caller.username else {
            throw APIError(
                .forbidden, "forbidden", "only an administrator may list another user's sessions",
                fields: [.init(field: "user", message: "leave it out for your own")])
        }
        guard try api.directory.user(user, namespace: caller.namespace) != nil else {
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
