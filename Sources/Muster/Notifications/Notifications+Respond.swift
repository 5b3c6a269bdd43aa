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

        /// Refuses a latitude outside -90…90 or a longitude outside -180…180, naming the member of the answer.
        func validate() throws {
            guard latitude.isFinite, (-90...90).contains(latitude) else {
                throw MusterError(
                    .invalidArgument, "location.lat: expected a latitude from -90 to 90, not \(latitude)",
                    field: "location.lat")
            }
            guard longitude.isFinite, (-180...180).contains(longitude) else {
                throw MusterError(
                    .invalidArgument, "location.lng: expected a longitude from -180 to 180, not \(longitude)",
                    field: "location.lng")
            }
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
        /// Whether it was recorded before under the same `responseId` (a retry): nothing new was written.
        public var isRepeat = false
    }

    /// Answers a message in the respondent's inbox with `values` (a JSON object of field id → value).
    ///
    /// The response object is built as the app builds it (defaults for fields left alone, the
    /// store's clock for `currentDateTime`, the respondent's location for `currentLocation`) and validated
    /// against the payload. Throws `.notFound` for a message not sent to the user, `.conflict` when it was
    /// answered already, `FormRejection` for invalid values; nothing is written then.
    ///
    /// `responseId` is the client's id for this answer: the same id again returns the answer recorded with it
    /// (`isRepeat`) instead of `.conflict`, and writes nothing; an id used for another answer is `.conflict`.
    public func respond(messageId: UUID, values: Data, as respondent: Respondent) async throws -> Answer {
        try await respond(messageId: messageId, answers: FormRejection.answers(values), as: respondent)
    }

    /// Answers a message with answers already parsed (field id → value); see `respond(messageId:values:as:)`.
    ///
    /// The response is built and validated outside the writer against what a read shows; the writer
    /// only confirms that the message is still unanswered and the device name unchanged (a direct
    /// payload never changes) and appends. An indirect payload is resolved and checked on the writer.
    public func respond(
        messageId: UUID, answers: [String: JSONValue], as respondent: Respondent
    ) async throws -> Answer {
        let (user, namespace) = (respondent.user, respondent.namespace)
        return try await answer(messageId: messageId, answers: answers, as: respondent) { snapshot, isWriter in
            guard let addressed = try snapshot.inbox.addressed(messageId, user: user, namespace: namespace) else {
                throw MusterError(
                    .notFound,
                    "user \(user) has no message \(messageId.uuidString.lowercased())"
                        + " in namespace \(namespace)")
            }
            switch addressed.state {
            case .pending: break
            case .answered:
                throw MusterError(
                    .conflict,
                    "message \(messageId.uuidString.lowercased())"
                        + " was answered already by \(user)")
            case .withdrawn:
                throw MusterError(
                    .notFound,
                    "message \(messageId.uuidString.lowercased()) was withdrawn by its sender; it can no longer be answered"
                )
            }
            let position = addressed.position
            // Decoded only when needed, and once for all of a send's answers: a send to everyone carries every
            // recipient.
            return Question(basis: Key.position(position)) {
                guard let sent = try DecodedSends.shared.send(at: position, in: snapshot)?.sent else {
                    throw StoreError(
                        .corrupt,
                        "the inbox refers to a missing PayloadSent for message "
                            + messageId.uuidString.lowercased())
                }
                let payload = ParsedPayloads.parse(Data(sent.payload))
                guard payload.payloadName != nil else { return (payload, sent.responseTopic) }
                // An indirect payload is answered as the device showed it: resolved on the writer, as the fetch does.
                guard isWriter else { return nil }
                let resolved = try snapshot.namedPayloads.resolve(sent.payload, namespace: namespace)
                return (resolved.map(ParsedPayloads.parse) ?? payload, sent.responseTopic)
            }
        }
    }
}

extension FormRejection {
    static let notObject = FormRejection(
        subject: "response",
        errors: [FormError(path: "values", rule: .notJSON, message: "must be a JSON object of field id → value")])

    /// The answers of a response: `values` must be a JSON object of field id → value; text that is not JSON is
    /// refused naming where it stops being JSON.
    public static func answers(_ values: Data) throws -> [String: JSONValue] {
        let value: JSONValue
        do {
            value = try JSONValue(json: values)
        } catch {
            throw FormRejection(
                subject: "response",
                errors: [FormError(path: "values", rule: .notJSON, message: "is not valid JSON (\(error))")])
        }
        guard let object = value.objectValue else { throw notObject }
        return object
    }
}
