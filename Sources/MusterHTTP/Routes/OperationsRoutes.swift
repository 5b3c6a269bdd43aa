import Foundation
import Hummingbird

extension API {
    /// `/healthz` for load balancers and `/metrics` for Prometheus; no authentication.
    func addOperationsRoutes(to router: Router<Context>) {
        router.get("healthz") { _, _ in
            struct Health: Encodable {
                var status: String
                var head: UInt64
            }
            return try JSONCoding.response(Health(status: "ok", head: log.head))
        }
        router.get("metrics") { _, _ in
            Response(
                status: .ok, headers: [.contentType: "text/plain; version=0.0.4; charset=utf-8"],
                body: .init(byteBuffer: ByteBuffer(bytes: metrics.exposition(log: log))))
        }
    }
}
