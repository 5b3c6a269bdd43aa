import EventLog
import Forms
import Foundation
import MusterWire

/// User-initiated request templates (the seed's ArsRCSRequest): a title, a body, a response topic
/// and fields a user can fill in and publish without having been asked.
public struct Requests: Sendable {
    let log: EventLog

    public init(log: EventLog) { self.log = log }

    /// What a put stored, and the payload's problems the app ignores (unknown field types), one line each.
    public struct PutResult: Sendable, Hashable {
        public var template: RequestTemplateStored
        public var warnings: [String]
    }

    /// Stores (or replaces) a template. `payload` is a payload JSON object whose `responseTopic`,
    /// if any, is replaced by `responseTopic`. Throws `FormRejection` for an invalid payload or topic.
    @discardableResult
    public func put(
        _ name: String, title: String, body: String, responseTopic: String, payload: Data,
        namespace: String = Names.defaultNamespace, actor: String = "system"
    ) async throws -> PutResult {
        try Names.validate(name, as: "request name")
        try Names.validate(namespace, as: "namespace")
        try Names.validate(title, as: "title", field: "title", maximumBytes: 1024)
        var object = (try? JSONValue(json: payload))?.objectValue
        object?["responseTopic"] = .string(responseTopic)
        // Not a JSON object: parsing the text as given reports why.
        let parsed = object.map { Payload(json: .object($0)) } ?? ParsedPayloads.parse(payload)
        var report = parsed.validate()
        if parsed.payloadName != nil {
            report.errors.append(
                FormError(
                    path: "payload.payloadName", rule: .notAllowed, message: "a request carries its own fields"))
        }
        guard report.isValid else { throw FormRejection(subject: "request", errors: report.errors) }
        let template = RequestTemplateStored(
            name: name, title: title, body: body, responseTopic: responseTopic,
            payload: Array(JSONValue.object(object ?? [:]).jsonData()))
        _ = try await log.perform { scope in
            try scope.append(
                AppendRequest(
                    namespace: namespace, stream: Streams.request(name), events: [template.newEvent(actor: actor)]))
        }
        return PutResult(template: template, warnings: report.warnings.map(\.description))
    }

    /// Removes the template `name`: it is no longer offered and answering it is refused. Fails with `.notFound` when
    /// there is none.
    public func remove(_ name: String, namespace: String = Names.defaultNamespace, actor: String = "system")
        async throws
    {
        _ = try await log.perform { scope in
            try scope.remove(
                try scope.requestTemplates.template(name, namespace: namespace),
                else: "no request named \(String(reflecting: name)) in namespace \(namespace) (muster requests list)",
                recording: RequestTemplateRemoved(name: name), in: Streams.request(name), namespace: namespace,
                actor: actor)
        }
    }

    /// The template named `name`, or nil.
    public func get(_ name: String, namespace: String = Names.defaultNamespace) throws -> RequestTemplateStored? {
        try log.read { try $0.requestTemplates.template(name, namespace: namespace) }
    }

    /// Every template of the namespace, by name.
    public func list(namespace: String = Names.defaultNamespace) throws -> [RequestTemplateStored] {
        try log.read { try $0.requestTemplates.templates(namespace: namespace) }
    }
}

extension Notifications {
    /// Answers the request template `name` as the respondent starting it unasked from the app's Start tab:
    /// validates `values` against the template, records one `ResponseReceived` (a fresh message id,
    /// `request` set to the template's name) and so publishes the response object on the template's
    /// topic. Throws `.notFound` for an unknown user or template, `FormRejection` for invalid values;
    /// nothing is written then. The same `responseId` again returns the answer recorded with it (`isRepeat`)
    /// and writes nothing: a retry does not start the request twice.
    public func respond(toRequest name: String, values: Data, as respondent: Respondent) async throws -> Answer {
        try await respond(toRequest: name, answers: FormRejection.answers(values), as: respondent)
    }

    /// Answers a request template with answers already parsed; see `respond(toRequest:values:as:)`.
    ///
    /// The response is built and validated outside the writer against the template a read shows;
    /// the writer confirms the template's bytes and the device name are unchanged and appends (or,
    /// when they changed meanwhile, builds it again there).
    public func respond(
        toRequest name: String, answers: [String: JSONValue], as respondent: Respondent
    ) async throws -> Answer {
        let (user, namespace) = (respondent.user, respondent.namespace)
        return try await answer(
            messageId: EventID.make(), request: name, answers: answers, as: respondent
        ) { snapshot, _ in
            guard try snapshot.directory.user(user, namespace: namespace) != nil else {
                throw MusterError(.notFound, "no user named \(String(reflecting: user)) in namespace \(namespace)")
            }
            guard let template = try snapshot.requestTemplates.template(name, namespace: namespace) else {
                throw MusterError(
                    .notFound,
                    "no request named \(String(reflecting: name)) in namespace \(namespace) (muster requests list)")
            }
            return Question(basis: template.payload) {
                (ParsedPayloads.parse(Data(template.payload)), template.responseTopic)
            }
        }
    }
}
