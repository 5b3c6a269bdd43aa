import EventLog
import Forms
import Foundation
import MusterWire

/// User-initiated request templates (the seed's ArsRCSRequest): a title, a body, a response topic
/// and fields a user can fill in and publish without having been asked.
public struct Requests: Sendable {
    let log: EventLog

    public init(log: EventLog) { self.log = log }

    /// Stores (or replaces) a template. `payload` is a payload JSON object whose `responseTopic`,
    /// if any, is replaced by `responseTopic`. Throws `FormRejection` for an invalid payload or topic.
    @discardableResult
    public func put(
        _ name: String, title: String, body: String, responseTopic: String, payload: Data,
        namespace: String = Names.defaultNamespace, actor: String = "system"
    ) async throws -> RequestTemplateStored {
        try Names.validate(name, as: "request name")
        try Names.validate(namespace, as: "namespace")
        try Names.validate(title, as: "title", maximumBytes: 1024)
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
                    namespace: namespace, stream: "request/\(name)", events: [template.newEvent(actor: actor)]))
        }
        return template
    }

    /// The template named `name`, or nil.
    public func get(_ name: String, namespace: String = Names.defaultNamespace) throws -> RequestTemplateStored? {
        try log.read { try Self.template(name, namespace, $0.projection(RequestProjection.name)) }
    }

    /// Every template of the namespace, by name.
    public func list(namespace: String = Names.defaultNamespace) throws -> [RequestTemplateStored] {
        try log.read { reader in
            var result: [RequestTemplateStored] = []
            try reader.projection(RequestProjection.name).scan(
                "templates", prefix: DirectoryProjection.key(namespace)
            ) { _, value in
                var r = ByteReader(value)
                result.append(try RequestTemplateStored(from: &r))
                return true
            }
            return result
        }
    }

    static func template(_ name: String, _ namespace: String, _ state: ProjectionState) throws
        -> RequestTemplateStored?
    {
        try state.get("templates", DirectoryProjection.key(namespace, name)).map { bytes in
            try bytes.withUnsafeBytes { buffer in
                var reader = ByteReader(buffer)
                return try RequestTemplateStored(from: &reader)
            }
        }
    }
}

extension Notifications {
    /// Answers the request template `name` as `user` starting it unasked from the app's Start tab:
    /// validates `values` against the template, records one `ResponseReceived` (a fresh message id,
    /// `request` set to the template's name) and so publishes the response object on the template's
    /// topic. Throws `.notFound` for an unknown user or template, `FormRejection` for invalid values;
    /// nothing is written then.
    public func respond(
        toRequest name: String, user: String, deviceId: String, deviceName: String? = nil, submitValue: Int = 0,
        values: Data, at location: Location? = nil, namespace: String = Names.defaultNamespace,
        actor: String? = nil
    ) async throws -> Answer {
        try await respond(
            toRequest: name, user: user, deviceId: deviceId, deviceName: deviceName, submitValue: submitValue,
            answers: FormRejection.answers(values), at: location, namespace: namespace, actor: actor)
    }

    /// Answers a request template with answers already parsed; see `respond(toRequest:…values:…)`.
    ///
    /// The response is built and validated outside the writer against the template a read shows;
    /// the writer confirms the template's bytes and the device name are unchanged and appends (or,
    /// when they changed meanwhile, builds it again there).
    public func respond(
        toRequest name: String, user: String, deviceId: String, deviceName: String? = nil, submitValue: Int = 0,
        answers: [String: JSONValue], at location: Location? = nil, namespace: String = Names.defaultNamespace,
        actor: String? = nil
    ) async throws -> Answer {
        try Names.validate(deviceId, as: "device id")
        let messageId = EventID.make()
        let prepared = try log.read { reader -> Prepared? in
            guard let template = try Requests.template(name, namespace, reader.projection(RequestProjection.name))
            else { return nil }  // The writer says so.
            let device =
                try deviceName
                ?? Self.registeredName(user, deviceId, namespace, reader.projection(DirectoryProjection.name))
                ?? deviceId
            let (response, json) = try Self.submit(
                ParsedPayloads.parse(Data(template.payload)), answers, user: user, deviceId: deviceId,
                deviceName: device,
                submitValue: submitValue, at: location, now: log.configuration.clock())
            return Prepared(basis: template.payload, deviceName: device, response: response, json: json)
        }
        return try await log.perform { scope in
            guard try Directory.user(user, namespace, scope.projection(DirectoryProjection.name)) != nil else {
                throw MusterError(.notFound, "no user named \(String(reflecting: user)) in namespace \(namespace)")
            }
            guard let template = try Requests.template(name, namespace, scope.projection(RequestProjection.name))
            else {
                throw MusterError(
                    .notFound,
                    "no request named \(String(reflecting: name)) in namespace \(namespace) (muster requests list)")
            }
            let device =
                try deviceName
                ?? Self.registeredName(user, deviceId, namespace, scope.projection(DirectoryProjection.name))
                ?? deviceId
            let response: ResponseObject
            let json: Data
            if let prepared, prepared.basis == template.payload, prepared.deviceName == device {
                (response, json) = (prepared.response, prepared.json)
            } else {
                (response, json) = try Self.submit(
                    ParsedPayloads.parse(Data(template.payload)), answers, user: user, deviceId: deviceId,
                    deviceName: device, submitValue: submitValue, at: location, now: scope.now)
            }
            let received = ResponseReceived(
                messageId: messageId, user: user, deviceId: deviceId, deviceName: device, submitValue: submitValue,
                response: Array(json), responseTopic: template.responseTopic, request: name)
            let result = try scope.append(
                AppendRequest(
                    namespace: namespace, stream: "message/\(messageId.uuidString)", expectedVersion: .noStream,
                    events: [received.newEvent(actor: actor ?? user)]))
            return Answer(messageId: messageId, response: response, json: json, position: result.lastPosition)
        }
    }
}
