import Foundation
import Hummingbird
import Muster

extension API {
    /// Publishing on topics and listening to them live (Server-Sent Events): administrators, as rules do.
    func addTopicRoutes(to group: RouterGroup<Context>) {
        group.post("topics/**") { request, context in
            let caller = try context.administrator()
            let topic = "/" + context.remainingPath()
            let document = try await request.jsonBody()
            let position = try await notifications(caller.namespace).publish(
                document, on: topic, namespace: caller.namespace, actor: caller.username)
            return try JSONCoding.response(["position": position], status: .accepted)
        }

        group.get("topics/**") { request, context in
            let caller = try context.administrator()
            let filter = try TopicFilter("/" + context.remainingPath())
            let deliveries = try notifications(caller.namespace).listen(
                filter, namespace: caller.namespace, from: try EventStream.start(request))
            let events = deliveries.map { delivery in
                ServerSentEvent(id: delivery.position, event: delivery.kind.rawValue, data: delivery.json)
            }
            return EventStream.response(events, keepAlive: configuration.keepAlive)
        }
    }
}
