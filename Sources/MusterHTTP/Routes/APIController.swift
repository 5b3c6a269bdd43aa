import Hummingbird
import Muster

/// One resource's routes and their handlers. Each route says who may call it where it is added, so a handler
/// that needs a login is handed the caller instead of asking for one.
protocol APIController {
    /// Adds the controller's routes to `routes` (the router, or its `/api/v1` group).
    func addRoutes(to routes: some RouterMethods<API.Context>)
}

/// Who may call a route.
enum Access: Sendable {
    /// Any logged-in user (401 without a bearer token).
    case user
    /// An administrator of the caller's namespace (401 without a bearer token, 403 for other users).
    case administrator

    /// The caller of `context`, if they may call the route.
    func caller(of context: API.Context) throws -> API.Caller {
        switch self {
        case .user: try context.caller()
        case .administrator: try context.administrator()
        }
    }

    /// Whether a bearer token still lets its caller call the route: not expired, not logged out, its session not
    /// revoked, and the caller still an administrator where the route needs one.
    func holds(token: String?, _ authenticator: Authenticator) async -> Bool {
        guard let token, let principal = try? await authenticator.principal(bearer: token) else { return false }
        switch self {
        case .user: return true
        case .administrator: return principal.isAdmin
        }
    }
}

extension RouterMethods where Context == API.Context {
    /// Adds a route that only `access` may call; the handler gets the caller.
    @discardableResult
    func on(
        _ path: RouterPath, method: HTTPRequest.Method, for access: Access,
        use handler: @escaping @Sendable (Request, Context, API.Caller) async throws -> some ResponseGenerator
    ) -> Self {
        on(path, method: method) { request, context in
            try await handler(request, context, try access.caller(of: context))
        }
    }

    /// Adds a `GET` route that only `access` may call.
    @discardableResult
    func get(
        _ path: RouterPath, for access: Access,
        use handler: @escaping @Sendable (Request, Context, API.Caller) async throws -> some ResponseGenerator
    ) -> Self { on(path, method: .get, for: access, use: handler) }

    /// Adds a `PUT` route that only `access` may call.
    @discardableResult
    func put(
        _ path: RouterPath, for access: Access,
        use handler: @escaping @Sendable (Request, Context, API.Caller) async throws -> some ResponseGenerator
    ) -> Self { on(path, method: .put, for: access, use: handler) }

    /// Adds a `POST` route that only `access` may call.
    @discardableResult
    func post(
        _ path: RouterPath, for access: Access,
        use handler: @escaping @Sendable (Request, Context, API.Caller) async throws -> some ResponseGenerator
    ) -> Self { on(path, method: .post, for: access, use: handler) }

    /// Adds a `DELETE` route that only `access` may call.
    @discardableResult
    func delete(
        _ path: RouterPath, for access: Access,
        use handler: @escaping @Sendable (Request, Context, API.Caller) async throws -> some ResponseGenerator
    ) -> Self { on(path, method: .delete, for: access, use: handler) }
}
