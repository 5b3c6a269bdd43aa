import Foundation
import MusterWire

extension MusterClient {
    /// The messages waiting for the user's answer, oldest first (`GET /api/v1/inbox`).
    public func inbox() async throws(MusterClientError) -> [InboxItem] {
        let request = APIRequest("GET", ["inbox"])
        return try decode([InboxItem].self, from: try await perform(request), of: request)
    }

    /// Admin: withdraws a message not answered yet (`DELETE /api/v1/messages/{id}`): it leaves its recipient's inbox
    /// (`InboxEvent.withdrawn`), can no longer be answered, and its pushes still waiting are not sent. Throws
    /// `not_found` for a message sent to nobody of the namespace, `conflict` for one answered or withdrawn already.
    public func withdrawMessage(id: UUID) async throws(MusterClientError) {
        _ = try await perform(APIRequest("DELETE", ["messages", Self.wire(id)]))
    }

    /// Admin: withdraws messages not answered yet, all or none (`POST /api/v1/withdrawals`), as
    /// ``withdrawMessage(id:)`` withdraws one; returns those withdrawn, in the order given. When one is refused
    /// (`not_found`, `conflict`) none is withdrawn.
    public func withdrawMessages(ids: [UUID]) async throws(MusterClientError) -> [UUID] {
        let request = try APIRequest("POST", ["withdrawals"], json: WithdrawalBody(messageIds: ids))
        return try decode(MessagesWithdrawn.self, from: try await perform(request), of: request).withdrawn
    }

    /// One message with its payload as the device shows it (`GET /api/v1/messages/{id}`).
    public func message(id: UUID) async throws(MusterClientError) -> Message {
        let request = APIRequest("GET", ["messages", Self.wire(id)])
        return try decode(Message.self, from: try await perform(request), of: request)
    }

    /// Answers a message (`POST /api/v1/messages/{id}/response`); returns the response object the server
    /// published on the message's `responseTopic`.
    ///
    /// Throws `invalid_values` with one field error per value the form refuses, and `conflict` when the message
    /// was already answered (from any of the user's devices).
    ///
    /// - Parameters:
    ///   - messageId: the message answered.
    ///   - deviceId: the answering device; it must be one of the user's.
    ///   - deviceName: the answering device's name; the server uses the registered one when nil.
    ///   - submitValue: the `value` of the button clicked; nil for the form's own Submit button (0).
    ///   - values: one value per field `id`; `.null` for a field left empty.
    ///   - location: where the device was, when the form or the sender wants it.
    public func respond(
        messageId: UUID, deviceId: String, deviceName: String? = nil, submitValue: Int? = nil,
        values: [String: JSONValue], location: GeoPoint? = nil
    ) async throws(MusterClientError) -> ResponseObject {
        let body = AnswerBody(
            deviceId: deviceId, deviceName: deviceName, submitValue: submitValue, values: .object(values),
            location: location)
        let request = try APIRequest("POST", ["messages", Self.wire(messageId), "response"], json: body)
        return try decode(ResponseObject.self, from: try await perform(request), of: request)
    }

    /// The forms the user can start without being asked (`GET /api/v1/requests`).
    public func requests() async throws(MusterClientError) -> [RequestTemplate] {
        let request = APIRequest("GET", ["requests"])
        return try decode([RequestTemplate].self, from: try await perform(request), of: request)
    }

    /// One user-initiated request by name (`GET /api/v1/requests/{name}`).
    public func request(name: String) async throws(MusterClientError) -> RequestTemplate {
        let request = APIRequest("GET", ["requests", name])
        return try decode(RequestTemplate.self, from: try await perform(request), of: request)
    }

    /// Submits a user-initiated request (`POST /api/v1/requests/{name}/response`); the body and answer are those
    /// of ``respond(messageId:deviceId:deviceName:submitValue:values:location:)``.
    public func respond(
        toRequest name: String, deviceId: String, deviceName: String? = nil, submitValue: Int? = nil,
        values: [String: JSONValue], location: GeoPoint? = nil
    ) async throws(MusterClientError) -> ResponseObject {
        let body = AnswerBody(
            deviceId: deviceId, deviceName: deviceName, submitValue: submitValue, values: .object(values),
            location: location)
        let request = try APIRequest("POST", ["requests", name, "response"], json: body)
        return try decode(ResponseObject.self, from: try await perform(request), of: request)
    }

    /// Admin: sends a form to users, groups or everyone (`POST /api/v1/notifications`), the seed's
    /// `Notification.sendPayload` family. Each recipient gets a message and a push on each device.
    ///
    /// - Parameters:
    ///   - title: the notification's title.
    ///   - body: the notification's body (subtitle).
    ///   - payload: the form payload of seed 000 (`responseTopic`, `fields`, `state`, or `payloadName`).
    ///   - recipients: users, groups, or everyone.
    ///   - source: the source to name in the message, when any.
    ///   - mqtt: what to set on the DialogMessage of recipients' MQTT devices (`{"SwitchToTab": "QR", …}`).
    public func send(
        title: String, body: String, payload: JSONValue, to recipients: Recipients, source: String? = nil,
        mqtt: [String: JSONValue]? = nil
    ) async throws(MusterClientError) -> SentNotification {
        let notification = NotificationBody(
            title: title, body: body, payload: payload, to: recipients, source: source, mqtt: mqtt)
        let request = try APIRequest("POST", ["notifications"], json: notification)
        return try decode(SentNotification.self, from: try await perform(request), of: request)
    }

    /// Admin: stores a user-initiated request (`PUT /api/v1/requests/{name}`), creating or replacing it; returns
    /// it as stored.
    @discardableResult
    public func putRequest(_ template: RequestTemplate) async throws(MusterClientError) -> RequestTemplate {
        let body = RequestTemplateBody(template)
        let request = try APIRequest("PUT", ["requests", template.name], json: body)
        return try decode(RequestTemplate.self, from: try await perform(request), of: request)
    }

    /// Admin: stores a named payload (`PUT /api/v1/payloads/{name}`) that messages reference by `payloadName`.
    @discardableResult
    public func putPayload(name: String, _ payload: JSONValue) async throws(MusterClientError) -> StoredPayload {
        let request = try APIRequest("PUT", ["payloads", name], json: payload)
        return try decode(StoredPayload.self, from: try await perform(request), of: request)
    }

    /// Admin: removes a named payload (`DELETE /api/v1/payloads/{name}`): new sends can no longer name it; messages
    /// sent by it before still show it. Throws `not_found` for no such payload.
    public func removePayload(name: String) async throws(MusterClientError) {
        _ = try await perform(APIRequest("DELETE", ["payloads", name]))
    }

    /// Admin: removes a request template (`DELETE /api/v1/requests/{name}`): it is no longer offered or answered.
    /// Throws `not_found` for no such template.
    public func removeRequest(name: String) async throws(MusterClientError) {
        _ = try await perform(APIRequest("DELETE", ["requests", name]))
    }

    /// Every named payload of the namespace, by name (`GET /api/v1/payloads`).
    public func payloads() async throws(MusterClientError) -> [NamedPayload] {
        let request = APIRequest("GET", ["payloads"])
        return try decode([NamedPayload].self, from: try await perform(request), of: request)
    }

    /// A named payload (`GET /api/v1/payloads/{name}`).
    public func payload(name: String) async throws(MusterClientError) -> JSONValue {
        let request = APIRequest("GET", ["payloads", name])
        return try decode(JSONValue.self, from: try await perform(request), of: request)
    }

    /// Admin: publishes a JSON document on a topic (`POST /api/v1/topics/{topic…}`); its listeners receive it
    /// as is. Returns the document's log position.
    ///
    /// - Parameters:
    ///   - document: any JSON.
    ///   - topic: the topic, e.g. `/a/b/c`.
    public func publish(_ document: JSONValue, to topic: String) async throws(MusterClientError) -> String {
        let request = try APIRequest("POST", ["topics"] + Self.topicSegments(topic), json: document)
        return try decode(Published.self, from: try await perform(request), of: request).position.text
    }

    /// A message id as the wire writes it: lowercase.
    static func wire(_ id: UUID) -> String {
        id.uuidString.lowercased()
    }

    /// The path segments of a topic or topic filter: `/a/+/c` → `a`, `+`, `c`.
    static func topicSegments(_ topic: String) -> [String] {
        topic.split(separator: "/", omittingEmptySubsequences: true).map(String.init)
    }
}

private struct Published: Decodable {
    var position: Position
}

/// A log position, written as a number or a string.
struct Position: Decodable, Sendable {
    var text: String

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let number = try? container.decode(UInt64.self) {
            text = String(number)
        } else {
            text = try container.decode(String.self)
        }
    }
}
