import Forms
import Foundation
import Hummingbird
import MQTTConnect
import Muster
import MusterWire

/// `/notifications`, `/inbox` and `/messages`: sending (administrators), the caller's inbox (a list, or live),
/// messages and responses to them, and the withdrawal of a message not answered yet (administrators).
struct NotificationController: APIController {
    let api: API

    func addRoutes(to routes: some RouterMethods<API.Context>) {
        routes
            .post("notifications", for: .administrator, use: send)
            .get("inbox", for: .user, use: inbox)
            .get("messages/:id", for: .user, use: message)
            .post("messages/:id/response", for: .user, use: respond)
            .delete("messages/:id", for: .administrator, use: withdraw)
            .post("withdrawals", for: .administrator, use: withdrawAll)
    }

    /// Withdraws a message of the namespace not answered yet: it leaves its recipient's inbox and its pushes still
    /// waiting are not sent.
    @Sendable func withdraw(_ request: Request, context: API.Context, caller: API.Caller) async throws
        -> HTTPResponse.Status
    {
        try await api.notifications.withdraw(
            [try Self.messageId(context)], namespace: caller.namespace, actor: caller.username)
        return .noContent
    }

    /// Withdraws messages of the namespace not answered yet, all or none: one refused (404, 409) withdraws nothing.
    @Sendable func withdrawAll(_ request: Request, context: API.Context, caller: API.Caller) async throws
        -> MessagesWithdrawn
    {
        let body = try await request.decode(as: WithdrawalBody.self, context: context)
        guard (1...10_000).contains(body.messageIds.count) else {
            throw MusterError(
                .invalidArgument,
                "messageIds: give 1 to 10000 message ids (a whole send's rest: POST /api/v1/sends/{id}/withdraw)",
                field: "messageIds")
        }
        let withdrawn = try await api.notifications.withdraw(
            body.messageIds, namespace: caller.namespace, actor: caller.username)
        return MessagesWithdrawn(withdrawn: withdrawn.map(\.messageId))
    }

    @Sendable func send(_ request: Request, context: API.Context, caller: API.Caller) async throws -> EditedResponse<
        SentNotification
    > {
        let send = try await request.decode(as: NotificationBody.self, context: context)
        let dialog: DialogSenderSettings
        do {
            dialog = try DialogSenderSettings(json: send.mqtt ?? [:])
        } catch {
            throw MusterError(.invalidArgument, "mqtt.\(error)", field: "mqtt.\(error.setting)")
        }
        let result = try await api.notifications.send(
            to: send.to ?? [], groups: send.groups ?? [], all: send.all ?? false, title: send.title,
            body: send.body, source: send.source, payload: send.payload, namespace: caller.namespace,
            actor: caller.username, dialog: dialog)
        return EditedResponse(status: .created, response: result.sent)
    }

    @Sendable func inbox(_ request: Request, context: API.Context, caller: API.Caller) async throws -> Response {
        let notifications = api.notifications
        if request.headers[.accept]?.contains("text/event-stream") == true {
            let updates = notifications.inboxUpdates(
                user: caller.username, namespace: caller.namespace,
                from: try EventStream.start(request, head: api.log.head))
            let events = updates.map { update -> ServerSentEvent in
                switch update.change {
                case .arrived(let message):
                    ServerSentEvent(
                        id: update.position, event: "message", data: try MusterJSON.encoder().encode(InboxItem(message))
                    )
                case .answered(let messageId):
                    ServerSentEvent(
                        id: update.position, event: "answered",
                        data: try MusterJSON.encoder().encode(["messageId": messageId.uuidString.lowercased()]))
                case .withdrawn(let messageId):
                    ServerSentEvent(
                        id: update.position, event: "withdrawn",
                        data: try MusterJSON.encoder().encode(["messageId": messageId.uuidString.lowercased()]))
                }
            }
            return api.liveStream(events, context: context, for: .user)
        }
        // The head before the read: a stream resumed after it misses nothing the list did not show.
        let position = api.log.head
        let items = try notifications.inbox(user: caller.username, namespace: caller.namespace).map(InboxItem.init)
        var response = try items.response(from: request, context: context)
        response.headers[.logPosition] = String(position)
        return response
    }

    @Sendable func message(_ request: Request, context: API.Context, caller: API.Caller) async throws -> Message {
        let id = try Self.messageId(context)
        guard
            let stored = try api.notifications.message(
                id: id, user: caller.username, namespace: caller.namespace)
        else {
            throw APIError(.notFound, "not_found", "you have no message \(id)")
        }
        return try Message(stored)
    }

    @Sendable func respond(_ request: Request, context: API.Context, caller: API.Caller) async throws -> EditedResponse<
        JSONText
    > {
        let id = try Self.messageId(context)
        let answer = try await request.decode(as: AnswerBody.self, context: context)
        let recorded = try await api.notifications.respond(
            messageId: id, answers: try answer.answers(),
            as: answer.respondent(caller))
        return EditedResponse(status: recorded.isRepeat ? .ok : .created, response: JSONText(recorded.json))
    }
}

extension AnswerBody {
    /// `values` as field id → value.
    func answers() throws -> [String: JSONValue] {
        guard let answers = values.objectValue else {
            throw APIError(
                .unprocessableContent, "invalid_values", "values must be a JSON object of field id → value",
                fields: [.init(field: "values", message: "expected a JSON object")])
        }
        return answers
    }

    /// The caller answering from the body's device, as the domain takes it.
    func respondent(_ caller: API.Caller) -> Respondent {
        Respondent(
            user: caller.username, deviceId: deviceId, deviceName: deviceName, submitValue: submitValue ?? 0,
            at: location.map { .init(latitude: $0.latitude, longitude: $0.longitude) }, namespace: caller.namespace,
            actor: caller.username, responseId: responseId)
    }
}

extension NotificationController {
    /// The path's `{id}` as a message id; a 400 naming it when it is not a UUID.
    static func messageId(_ context: API.Context) throws -> UUID {
        guard let id = context.parameters.get("id", as: UUID.self) else {
            let text = context.parameters.get("id") ?? ""
            throw APIError(
                .badRequest, "bad_request", "message id \(text) is not a UUID",
                fields: [.init(field: "id", message: "expected a UUID such as 3f2c1a9e-…")])
        }
        return id
    }
}
