import Hummingbird

/// Counts every answered request by method, route and status, and times it.
struct RequestMetricsMiddleware: RouterMiddleware {
    typealias Context = MusterRequestContext
    let metrics: ServerMetrics
    static let methods: Set<HTTPRequest.Method> = [
        .get, .head, .post, .put, .delete, .patch, .options, .connect, .trace,
    ]

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response)
        async throws -> Response
    {
        let started = ContinuousClock.now
        let response = try await next(request, context)
        // A method of HTTP's own, or OTHER: a client inventing methods would otherwise make new series without end.
        let method = Self.methods.contains(request.method) ? request.method.rawValue : "OTHER"
        metrics.request(
            method: method, route: context.endpointPath ?? "unmatched",
            status: response.status.code, duration: ContinuousClock.now - started)
        return response
    }
}
