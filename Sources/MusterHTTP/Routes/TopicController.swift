import Foundation
import Hummingbird
import Muster

/// `/topics/**`: publishing on topics and listening to them live (Server-Sent Events) — administrators, as
/// rules do.
struct TopicController: APIController {
    let api: API

    func addRoutes(to routes: some RouterMethods<API.Context>) {
        routes
            .post("topics/**", for: .administrator, use: publish)
            .get("topics/**", for: .administrator, use: listen)
    }

    /// The answer of a publication: where it is in the log.
    struct Published: ResponseEncodable {
        var position: UInt64
    }

    @Sendable func publish(_ request: Request, context: API.Context, caller: API.Caller) async throws -> EditedResponse<
        Published
    > {
        let topic = Self.topic(of: request)
        let document = try await request.jsonBody(context: context)
        let position = try await api.notifications.publish(
            document, on: topic, namespace: caller.namespace, actor: caller.username)
        return EditedResponse(status: .accepted, response: Published(position: position))
    }

    @Sendable func listen(_ request: Request, context: API.Context, caller: API.Caller) async throws -> Response {
        let filter = try TopicFilter(Self.topic(of: request))
        let deliveries = api.notifications.listen(
            filter, namespace: caller.namespace, from: try EventStream.start(request, head: api.log.head))
        let events = deliveries.map { delivery in
            ServerSentEvent(id: delivery.position, event: delivery.kind.rawValue, data: delivery.json)
        }
        return api.liveStream(events, context: context, for: .administrator)
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
