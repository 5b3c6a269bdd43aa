import EventLog
import Foundation
import Hummingbird
import Muster

/// `/events`: the administrator's view of the log — the namespace's events, as `muster events --json` prints them;
/// with `Accept: text/event-stream`, live (`muster events --follow`).
struct EventController: APIController {
    let api: API

    func addRoutes(to routes: some RouterMethods<API.Context>) {
        routes.get("events", for: .administrator, use: list)
    }

    @Sendable func list(_ request: Request, context: API.Context, caller: API.Caller) async throws -> Response {
        if request.headers[.accept]?.contains("text/event-stream") == true {
            return try follow(request, context: context, caller: caller)
        }
        let from = try request.query("from", "a log position (a whole number)") { UInt64($0) } ?? 1
        let limit =
            try request.query("limit", "a whole number from 1 to 10000") {
                Int($0).flatMap { (1...10_000).contains($0) ? $0 : nil }
            } ?? 1000
        let query = EventQuery(
            namespace: caller.namespace, stream: request.uri.queryParameters.get("stream"),
            type: request.uri.queryParameters.get("type"), from: from, limit: limit)
        // The one rendering of an event, the lines `muster events --json` prints.
        var body: [UInt8] = [UInt8(ascii: "[")]
        for (index, event) in try api.log.events(query).enumerated() {
            if index > 0 { body.append(UInt8(ascii: ",")) }
            body += EventJSON.line(event)
        }
        body.append(UInt8(ascii: "]"))
        return try JSONText(body).response(from: request, context: context)
    }

    /// Every matching event from `from` (or after `Last-Event-ID`, or from now) on, each as `event: event` whose
    /// data is the event's line.
    private func follow(_ request: Request, context: API.Context, caller: API.Caller) throws -> Response {
        let head = api.log.head
        let query = EventQuery(
            namespace: caller.namespace, stream: request.uri.queryParameters.get("stream"),
            type: request.uri.queryParameters.get("type"), from: try EventStream.start(request, head: head) ?? head + 1)
        let events = api.log.follow(query).map { event in
            ServerSentEvent(id: event.position, event: "event", data: Data(EventJSON.line(event)))
        }
        return api.liveStream(events, context: context, for: .administrator)
    }
}
