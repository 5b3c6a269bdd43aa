import Forms
import Foundation
import Hummingbird
import Muster
import MusterWire

extension API {
    /// Sending (administrators), the caller's inbox (a list, or live), messages and responses.
    func addNotificationRoutes(to group: RouterGroup<Context>) {
        group.post("notifications") { request, context in
            let caller = try context.administrator()
            struct Send: Decodable {
                var to: [String]?
                var groups: [String]?
                var all: Bool?
                var title: String
                var body: String
                var source: String?
                var payload: JSONValue
            }
            let send = try await request.decode(Send.self)
            let result = try await notifications.send(
                to: send.to ?? [], groups: send.groups ?? [], all: send.all ?? false, title: send.title,
                body: send.body, source: send.source, payload: send.payload, namespace: caller.namespace,
                actor: caller.username)
            return try JSONCoding.response(result, status: .created)
        }

        group.get("inbox") { request, context in
            let caller = try context.caller()
            let notifications = self.notifications
            if request.headers[.accept]?.contains("text/event-stream") == true {
                let updates = notifications.inboxUpdates(
                    user: caller.username, namespace: caller.namespace,
                    from: try EventStream.start(request, head: log.head))
                let events = updates.map { update -> ServerSentEvent in
                    switch update.change {
                    case .arrived(let message):
                        ServerSentEvent(
                            id: update.position, event: "message",
                            data: try JSONCoding.encoder.encode(InboxItem(message)))
                    case .answered(let messageId):
                        ServerSentEvent(
                            id: update.position, event: "answered",
                            data: try JSONCoding.encoder.encode(["messageId": messageId.uuidString.lowercased()]))
                    }
                }
                return EventStream.response(events, keepAlive: configuration.keepAlive)
            }
            // The head before the read: a stream resumed after it misses nothing the list did not show.
            let position = log.head
            var response = try JSONCoding.response(
                try notifications.inbox(user: caller.username, namespace: caller.namespace).map(InboxItem.init))
            response.headers[.logPosition] = String(position)
            return response
        }

        group.get("messages/:id") { _, context in
            let caller = try context.caller()
            let id = try messageId(context)
            guard
                let stored = try notifications.message(
                    id: id, user: caller.username, namespace: caller.namespace)
            else {
                throw APIError(.notFound, "not_found", "you have no message \(id)")
            }
            return try JSONCoding.response(try Message(stored))
        }

        group.post("messages/:id/response") { request, context in
            let caller = try context.caller()
            let id = try messageId(context)
            let answer = try await request.decode(Answer.self)
            let recorded = try await notifications.respond(
                messageId: id, user: caller.username, deviceId: answer.deviceId, deviceName: answer.deviceName,
                submitValue: answer.submitValue ?? 0, answers: try answer.answers(),
                at: answer.location.map { .init(latitude: $0.lat, longitude: $0.lng) }, namespace: caller.namespace,
                actor: caller.username)
            return JSONCoding.response(recorded.json, status: .created)
        }
    }

    private func messageId(_ context: Context) throws -> UUID {
        let text = try context.parameter("id")
        guard let id = UUID(uuidString: text) else {
            throw APIError(.badRequest, "bad_request", "message id \(text) is not a UUID")
        }
        return id
    }
}

/// The body of a response to a message or a request template.
struct Answer: Decodable {
    struct Location: Decodable {
        var lat: Double
        var lng: Double
    }
    var deviceId: String
    var deviceName: String?
    var submitValue: Int?
    var values: JSONValue
    var location: Location?

    /// `values` as field id → value.
    func answers() throws -> [String: JSONValue] {
        guard let answers = values.objectValue else {
            throw APIError(
                .unprocessableContent, "invalid_values", "values must be a JSON object of field id → value",
                fields: [.init(field: "values", message: "expected a JSON object")])
        }
        return answers
    }
}
