import Hummingbird

/// Counts every answered request by method, route and status, and times it.
struct RequestMetricsMiddleware: RouterMiddleware {
    typealias Context = MusterRequestContext
    let metrics: ServerMetrics

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response)
        async throws -> Response
    {
        let started = ContinuousClock.now
        let response = try await next(request, context)
        metrics.request(
            method: request.method.rawValue, route: context.endpointPath ?? "unmatched",
            status: response.status.code, duration: ContinuousClock.now - started)
        return response
    }
}
