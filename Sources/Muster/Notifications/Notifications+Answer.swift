import EventLog
import Forms
import Foundation
import MusterWire

extension Notifications {
    /// What a response answers (a message, a request template), as one snapshot shows it.
    struct Question {
        /// What the answer is built against (the message's position, the template's bytes): an
        /// answer prepared on a read holds on the writer while this and the device name are unchanged.
        var basis: [UInt8]
        /// The payload as the device shows it and the answer's topic; nil when only the writer may
        /// build the answer (an indirect payload, resolved there). Read only when a prepared answer
        /// does not hold.
        var form: () throws -> (payload: Payload, topic: String)?
    }

    /// A response built and validated outside the writer, and what it was built from.
    private struct Prepared: Sendable {
        var basis: [UInt8]
        var deviceName: String
        var response: ResponseObject
        var json: Data
        var topic: String
    }

    /// Records a `ResponseReceived` for the question `ask` finds: the response is built and validated
    /// on a read snapshot, and the writer only confirms that the question is unchanged (`basis`, the
    /// device name) before it appends — or, when it changed meanwhile, builds the response again.
    /// `ask` throws (on the writer) why there is nothing to answer; `isWriter` tells it where it runs.
    ///
    /// `responseId`, the client's id for the answer, becomes the event's id: when an answer with this id
    /// is recorded already (a retry after a lost connection) it is returned as it was, before `ask` could
    /// refuse it as answered, and nothing is written; `isRepeat` says so. `messageId` is `nil` for a
    /// request: a repeat matches on `request` then.
    func answer(
        messageId: UUID, request: String? = nil, answers: [String: JSONValue], as respondent: Respondent,
        ask: @escaping @Sendable (any LogSnapshot, _ isWriter: Bool) throws -> Question
    ) async throws -> Answer {
        let (user, deviceId, deviceName, namespace) =
            (respondent.user, respondent.deviceId, respondent.deviceName, respondent.namespace)
        let (submitValue, location, responseId) = (respondent.submitValue, respondent.location, respondent.responseId)
        try Names.validate(deviceId, as: "device id", field: "deviceId")
        try location?.validate()
        @Sendable func build(_ question: Question, on snapshot: any LogSnapshot, now: Int64) throws -> Prepared? {
            guard let form = try question.form() else { return nil }
            let device =
                try deviceName ?? snapshot.directory.deviceName(deviceId, user: user, namespace: namespace) ?? deviceId
            let (response, json) = try Self.submit(
                form.payload, answers, user: user, deviceId: deviceId, deviceName: device, submitValue: submitValue,
                at: location, now: now, namespace: namespace, documents: snapshot.documents)
            return Prepared(
                basis: question.basis, deviceName: device, response: response, json: json, topic: form.topic)
        }
        let prepared = try log.read { reader -> Prepared? in
            // Nothing to answer: the writer says why.
            guard let question = try? ask(reader, false) else { return nil }
            return try build(question, on: reader, now: log.configuration.clock())
        }
        return try await log.perform { scope in
            if let responseId,
                let earlier = try Self.recorded(
                    responseId, messageId: request == nil ? messageId : nil, request: request, user: user,
                    namespace: namespace, in: scope)
            {
                return earlier
            }
            let question = try ask(scope, true)
            try Self.checkDevice(deviceId, user: user, namespace: namespace, in: scope)
            let device =
                try deviceName ?? scope.directory.deviceName(deviceId, user: user, namespace: namespace) ?? deviceId
            let answer: Prepared
            if let prepared, prepared.basis == question.basis, prepared.deviceName == device {
                answer = prepared
            } else if let built = try build(question, on: scope, now: scope.now) {
                answer = built
            } else {
                throw StoreError(.corrupt, "message \(messageId.uuidString.lowercased()) has no payload to answer")
            }
            let received = ResponseReceived(
                messageId: messageId, user: user, deviceId: deviceId, deviceName: answer.deviceName,
                submitValue: submitValue, response: Array(answer.json), responseTopic: answer.topic, request: request)
            var event = received.newEvent(actor: respondent.actor ?? user)
            if let responseId { event.id = responseId }
            let result = try scope.append(
                AppendRequest(
                    namespace: namespace, stream: Streams.message(messageId), expectedVersion: .noStream,
                    events: [event]))
            return Answer(
                messageId: messageId, response: answer.response, json: answer.json, position: result.lastPosition)
        }
    }

    /// The answer recorded already under the event id `responseId`, or nil when there is none. An id used
    /// for anything but `user`'s answer to this message (`messageId`) or request template (`request`) is
    /// refused, naming `responseId`.
    private static func recorded(
        _ responseId: UUID, messageId: UUID?, request: String?, user: String, namespace: String,
        in scope: WriteScope
    ) throws -> Answer? {
        guard let position = try scope.position(ofEventId: responseId) else { return nil }
        guard let event = try scope.event(at: position) else {
            throw StoreError(.corrupt, "event id \(responseId) points at missing position \(position)")
        }
        guard event.namespace == namespace, let received = try ResponseReceived.decode(event),
            received.user == user, received.request == request,
            messageId == nil || received.messageId == messageId
        else {
            throw MusterError(
                .conflict, "responseId \(responseId) was used for another answer: make a new one for each answer",
                field: "responseId")
        }
        let json = Data(received.response)
        return Answer(
            messageId: received.messageId, response: try ResponseObject(json: json), json: json, position: position,
            isRepeat: true)
    }

    /// The response object the app builds for `answers`, validated against `payload` and its media values
    /// against the stored `documents`; its JSON text.
    static func submit(
        _ payload: Payload, _ answers: [String: JSONValue], user: String, deviceId: String, deviceName name: String,
        submitValue: Int, at location: Location?, now: Int64, namespace: String,
        documents: ProjectionView<DocumentsProjection>
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
        var errors = payload.validate(response: response)
        errors += try mediaProblems(
            response, payload, user: user, namespace: namespace, refused: Set(errors.map(\.path)),
            documents: documents)
        guard errors.isEmpty else { throw FormRejection(subject: "response", errors: errors) }
        return (response, response.jsonData())
    }
}
