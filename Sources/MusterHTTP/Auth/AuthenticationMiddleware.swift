import Hummingbird

/// Reads `Authorization: Bearer …` and puts the caller in the context; routes that need a caller ask
/// `context.caller()`. A token that is present but not valid is refused here, naming what to do.
struct AuthenticationMiddleware: RouterMiddleware {
    typealias Context = MusterRequestContext
    let authenticator: Authenticator

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response)
        async throws -> Response
    {
        guard let header = request.headers[.authorization] else { return try await next(request, context) }
        guard header.count > 7, header.prefix(7).lowercased() == "bearer " else {
            throw APIError(
                .unauthorized, "unauthenticated", "the Authorization header must be \"Bearer <accessToken>\"")
        }
        var context = context
        let token = String(header.dropFirst(7))
        context.principal = try await authenticator.principal(bearer: token)
        context.bearerToken = token
        context.callerName.value = context.principal?.username ?? "-"
        return try await next(request, context)
    }
}
