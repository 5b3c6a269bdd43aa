import Foundation
import Hummingbird
import Muster

extension API {
    /// Publishing on topics and listening to them live (Server-Sent Events): administrators, as rules do.
    func addTopicRoutes(to group: RouterGroup<Context>) {
        group.post("topics/**") { request, context in
            let caller = try context.administrator()
            let topic = Self.topic(of: request)
            let document = try await request.jsonBody()
            let position = try await notifications.publish(
                document, on: topic, namespace: caller.namespace, actor: caller.username)
            return try JSONCoding.response(["position": position], status: .accepted)
        }

        group.get("topics/**") { request, context in
            let caller = try context.administrator()
            let filter = try TopicFilter(Self.topic(of: request))
            let deliveries = notifications.listen(
                filter, namespace: caller.namespace, from: try EventStream.start(request, head: log.head))
            let events = deliveries.map { delivery in
                ServerSentEvent(id: delivery.position, event: delivery.kind.rawValue, data: delivery.json)
            }
            return EventStream.response(events, keepAlive: configuration.keepAlive)
        }
    }

    /// The topic after `/api/v1/topics` exactly as sent, each segment percent-decoded. The router's
    /// view of the path closes up `a//b` to `a/b`; this keeps the empty segment, so the topic's check
    /// refuses it instead of publishing on another topic than the one named.
    static func topic(of request: Request) -> String {
        let path = request.uri.path
        guard let range = path.range(of: "/topics/") else { return "/" }
        return path[range.upperBound...].split(separator: "/", omittingEmptySubsequences: false)
            .map { "/" + ($0.removingPercentEncoding ?? String($0)) }.joined()
    }
}
