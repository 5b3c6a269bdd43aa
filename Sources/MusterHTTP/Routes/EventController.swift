import EventLog
import Foundation
import Hummingbird
import Muster

/// `/events`: the administrator's view of the log — the namespace's events, as `muster events --json` prints them.
struct EventController: APIController {
    let api: API

    func addRoutes(to routes: some RouterMethods<API.Context>) {
        routes.get("events", for: .administrator, use: list)
    }

    @Sendable func list(_ request: Request, context: API.Context, caller: API.Caller) async throws -> JSONText {
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
        return JSONText(Data(body))
    }
}
