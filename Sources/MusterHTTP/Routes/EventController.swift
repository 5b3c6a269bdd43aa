import EventLog
import Foundation
import Hummingbird
import Muster
import MusterWire

/// `/events`: the administrator's view of the log — the namespace's events, as `muster events --json` prints them.
struct EventController {
    let api: API

    var endpoints: RouteCollection<API.Context> {
        RouteCollection(context: API.Context.self).get("events", use: list)
    }

    @Sendable func list(_ request: Request, context: API.Context) async throws -> JSONText {
        let caller = try context.administrator()
        let from = try request.query("from", "a log position (a whole number)") { UInt64($0) } ?? 1
        let limit =
            try request.query("limit", "a whole number from 1 to 10000") {
                Int($0).flatMap { (1...10_000).contains($0) ? $0 : nil }
            } ?? 1000
        let query = EventQuery(
            namespace: caller.namespace, stream: request.uri.queryParameters.get("stream"),
            type: request.uri.queryParameters.get("type"), from: from, limit: limit)
        var lines: [Data] = []
        for event in try api.log.events(query) { lines.append(try EventView(event).json()) }
        var body = Data("[".utf8)
        body.append(contentsOf: lines.joined(separator: Data(",".utf8)))
        body.append(contentsOf: Data("]".utf8))
        return JSONText(body)
    }
}

/// An event with its domain body rendered as JSON.
struct EventView {
    let event: RecordedEvent

    init(_ event: RecordedEvent) { self.event = event }

    func json() throws -> Data {
        struct Envelope: Encodable {
            var position: UInt64
            var id: UUID
            var stream: String
            var version: UInt64
            var type: String
            var schemaVersion: UInt16
            var recordedAt: String
            var namespace: String
            var actor: String
        }
        let envelope = Envelope(
            position: event.position, id: event.id, stream: event.stream, version: event.version, type: event.type,
            schemaVersion: event.schemaVersion,
            recordedAt: Timestamp.iso8601(microseconds: event.recordedAt),
            namespace: event.namespace, actor: event.actor)
        var json = try MusterJSON.encoder().encode(envelope)
        json.removeLast()
        json.append(contentsOf: Data(#","body":"#.utf8))
        json.append(EventCatalogue.json(event) ?? Data("null".utf8))
        json.append(contentsOf: Data("}".utf8))
        return json
    }
}
