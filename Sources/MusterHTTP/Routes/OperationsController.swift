import Foundation
import Hummingbird

/// `/healthz` for load balancers and `/metrics` for Prometheus; no authentication.
struct OperationsController: APIController {
    let api: API

    func addRoutes(to routes: some RouterMethods<API.Context>) {
        routes
            .get("healthz", use: health)
            .get("metrics", use: metrics)
    }

    /// The answer of `GET /healthz`.
    struct Health: ResponseEncodable {
        var status: String
        var head: UInt64
    }

    @Sendable func health(_ request: Request, context: API.Context) async throws -> Health {
        Health(status: "ok", head: api.log.head)
    }

    @Sendable func metrics(_ request: Request, context: API.Context) async throws -> Response {
        Response(
            status: .ok, headers: [.contentType: "text/plain; version=0.0.4; charset=utf-8"],
            body: .init(byteBuffer: ByteBuffer(bytes: api.metrics.exposition(log: api.log))))
    }
}
