import EventLog
import Forms
import Foundation
import MusterWire

extension Notifications {
    /// Where the responding device was when it submitted.
    public struct Location: Sendable, Hashable {
        public var latitude: Double
        public var longitude: Double

        public init(latitude: Double, longitude: Double) {
            self.latitude = latitude
            self.longitude = longitude
        }
    }

    /// A recorded response.
    public struct Answer: Sendable, Hashable {
        public var messageId: UUID
        /// The response object, as published on its topic.
        public var response: ResponseObject
        /// Its JSON text, as stored.
        public var json: Data
        /// Position of the `ResponseReceived` event.
        public var position: UInt64
    }

    /// Answers a message in `user`'s inbox with `values` (a JSON object of field id → value).
    ///
    /// The response object is built as the app builds it (defaults for fields left alone, the
    /// store's clock for `currentDateTime`, `location` for `currentLocation`) and validated against
    /// the payload. Throws `.notFound` for a message not sent to `user`, `.conflict` when it was
    /// answered already, `FormRejection` for invalid values; nothing is written then.
    public func respond(
        messageId: UUID, user: String, deviceId: String, deviceName: String? = nil, submitValue: Int = 0,
        values: Data, at location: Location? = nil, namespace: String = Names.defaultNamespace,
        actor: String? = nil
    ) async throws -> Answer {
        try await respond(
            messageId: messageId, user: user, deviceId: deviceId, deviceName: deviceName, submitValue: submitValue,
            answers: FormRejection.answers(values), at: location, namespace: namespace, actor: actor)
    }

    /// Answers a message with answers already parsed (field id → value); see `respond(messageId:…values:…)`.
    ///
    /// The response is built and validated outside the writer against what a read shows; the writer
    /// only confirms that the message is still unanswered and the device name unchanged (a direct
    /// payload never changes) and appends. An indirect payload is resolved and checked on the writer.
    public func respond(
        messageId: UUID, user: String, deviceId: String, deviceName: String? = nil, submitValue: Int = 0,
        answers: [String: JSONValue], at location: Location? = nil, namespace: String = Names.defaultNamespace,
        actor: String? = nil
    ) async throws -> Answer {
        try Names.validate(deviceId, as: "device id")
        let prepared = try log.read { reader -> Prepared? in
            let inbox = try reader.projection(InboxProjection.name)
            guard let entry = try inbox.get("addressed", InboxProjection.addressedKey(namespace, messageId, user)),
                entry.last == 0, let event = try reader.event(at: InboxProjection.position(entry)),
                let sent = try PayloadSent.decode(event)
            else { return nil }  // The writer says why.
            let payload = ParsedPayloads.parse(Data(sent.payload))
            guard payload.payloadName == nil else { return nil }  // Resolved on the writer.
            let name =
                try deviceName
                ?? Self.registeredName(user, deviceId, namespace, reader.projection(DirectoryProjection.name))
                ?? deviceId
            let (response, json) = try Self.submit(
                payload, answers, user: user, deviceId: deviceId, deviceName: name, submitValue: submitValue,
                at: location, now: log.configuration.clock())
            return Prepared(
                basis: [], deviceName: name, response: response, json: json,
                sent: InboxProjection.position(entry), responseTopic: sent.responseTopic)
        }
        return try await log.perform { scope in
            let inbox = try scope.projection(InboxProjection.name)
            let key = InboxProjection.addressedKey(namespace, messageId, user)
            guard let entry = try inbox.get("addressed", key) else {
                throw MusterError(.notFound, "user \(user) has no message \(messageId) in namespace \(namespace)")
            }
            guard entry.last == 0 else {
                throw MusterError(.conflict, "message \(messageId) was answered already by \(user)")
            }
            let position = InboxProjection.position(entry)
            let name =
                try deviceName
                ?? Self.registeredName(user, deviceId, namespace, scope.projection(DirectoryProjection.name))
                ?? deviceId
            let response: ResponseObject
            let json: Data
            let topic: String
            if let prepared, prepared.deviceName == name, prepared.sent == position {
                // Not decoding PayloadSent again here: a send to everyone carries every recipient.
                (response, json, topic) = (prepared.response, prepared.json, prepared.responseTopic)
            } else {
                guard let event = try scope.event(at: position), let sent = try PayloadSent.decode(event) else {
                    throw StoreError(.corrupt, "the inbox refers to a missing PayloadSent for message \(messageId)")
                }
                // An indirect payload is answered as the device showed it: resolved now, as the fetch does.
                let resolved = try NamedPayloads.resolve(
                    sent.payload, namespace, scope.projection(NamedPayloadProjection.name))
                (response, json) = try Self.submit(
                    ParsedPayloads.parse(resolved ?? Data(sent.payload)), answers, user: user, deviceId: deviceId,
                    deviceName: name, submitValue: submitValue, at: location, now: scope.now)
                topic = sent.responseTopic
            }
            let received = ResponseReceived(
                messageId: messageId, user: user, deviceId: deviceId, deviceName: name, submitValue: submitValue,
                response: Array(json), responseTopic: topic)
            let result = try scope.append(
                AppendRequest(
                    namespace: namespace, stream: "message/\(messageId.uuidString)", expectedVersion: .noStream,
                    events: [received.newEvent(actor: actor ?? user)]))
            return Answer(messageId: messageId, response: response, json: json, position: result.lastPosition)
        }
    }

    /// A response built and validated outside the writer, and what it was built from.
    struct Prepared {
        /// The stored bytes it was built against (a request template's payload); the writer compares them.
        var basis: [UInt8]
        var deviceName: String
        var response: ResponseObject
        var json: Data
        /// Position of the `PayloadSent` answered, and its topic (0 and the template's topic for a request).
        var sent: UInt64 = 0
        var responseTopic: String = ""
    }

    /// The response object the app builds for `answers`, validated against `payload`; its JSON text.
    static func submit(
        _ payload: Payload, _ answers: [String: JSONValue], user: String, deviceId: String, deviceName name: String,
        submitValue: Int, at location: Location?, now: Int64
    ) throws -> (ResponseObject, Data) {
        var response = ResponseObject(
            submitting: payload, answers: answers, submitValue: submitValue,
            responder: Responder(username: user, deviceId: deviceId, deviceName: name),
            submittedAt: Date(timeIntervalSince1970: Double(now) / 1_000_000),
            location: MapPoint(longitude: location?.longitude ?? 0, latitude: location?.latitude ?? 0))
        if location == nil {
            for field in payload.valueFields {
                if case .currentLocation = field.kind, let id = field.id { response.values[id] = .null }
            }
        }
        // Values for no field are dropped by the builder: put them back so validation names them.
        for (id, value) in answers where response.values[id] == nil { response.values[id] = value }
        let errors = payload.validate(response: response)
        guard errors.isEmpty else { throw FormRejection(subject: "response", errors: errors) }
        return (response, response.jsonData())
    }

    /// The name the device was registered with, as the seed's ArsPushTarget would give it.
    static func registeredName(_ user: String, _ deviceId: String, _ namespace: String, _ directory: ProjectionState)
        throws -> String?
    {
        let key = DirectoryProjection.key(namespace, user, deviceId)
        guard let value = try directory.get("pushTargets", key) else { return nil }
        return try value.withUnsafeBytes { buffer in
            var reader = ByteReader(buffer)
            return try PushTargetRegistered(from: &reader).deviceName
        }
    }
}

extension FormRejection {
    static let notObject = FormRejection(
        subject: "response",
        errors: [FormError(path: "values", rule: .notJSON, message: "must be a JSON object of field id → value")])

    /// The answers of a response: `values` must be a JSON object of field id → value.
    static func answers(_ values: Data) throws -> [String: JSONValue] {
        guard let object = try? JSONValue(json: values).objectValue else { throw notObject }
        return object
    }
}
