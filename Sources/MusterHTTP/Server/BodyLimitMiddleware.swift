import Hummingbird

/// Hands every request the server's JSON body limit (`ServerConfiguration.bodyLimit`), which the request
/// context cannot read from its source.
struct BodyLimitMiddleware: RouterMiddleware {
    typealias Context = MusterRequestContext

    let bodyLimit: Int

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response)
        async throws -> Response
    {
        var context = context
        context.bodyLimit = bodyLimit
        return try await next(request, context)
    }
}
