import EventLog
import Forms
import Foundation
import MusterWire

/// Named payloads (the seed's ArsRCSPayload): stored once, referred to by `payloadName` from any
/// number of sends, and resolved when the device fetches the message.
public struct NamedPayloads: Sendable {
    let log: EventLog

    public init(log: EventLog) { self.log = log }

    /// What a put did.
    public struct PutResult: Sendable, Hashable, Encodable {
        public var name: String
        /// True when the name held a payload already (now replaced).
        public var replaced: Bool
        /// Payload problems the app ignores (unknown field types), one line each.
        public var warnings: [String]

        private enum CodingKeys: String, CodingKey { case name, replaced }
    }

    /// Stores `payload` under `name`, replacing what the name held. Throws `FormRejection` for an
    /// invalid payload (nothing is written then).
    @discardableResult
    public func put(
        _ name: String, payload: Data, namespace: String = Names.defaultNamespace, actor: String = "system"
    ) async throws -> PutResult {
        try Names.validate(name, as: "payload name")
        try Names.validate(namespace, as: "namespace")
        let parsed = Payload.parse(payload)
        var report = parsed.validate()
        if parsed.payloadName != nil {
            report.errors.append(
                FormError(
                    path: "payload.payloadName", rule: .notAllowed,
                    message: "a named payload cannot refer to another one"))
        }
        guard report.isValid else { throw FormRejection(subject: "payload", errors: report.errors) }
        let stored = NamedPayloadStored(name: name, payload: Array(payload))
        let replaced = try await log.perform { scope in
            let existing = try scope.namedPayloads.payload(name, namespace: namespace)
            try scope.append(
                AppendRequest(
                    namespace: namespace, stream: Streams.payload(name), events: [stored.newEvent(actor: actor)]))
            return existing != nil
        }
        return PutResult(name: name, replaced: replaced, warnings: report.warnings.map(\.description))
    }

    /// Removes the payload stored under `name`: new sends can no longer name it; messages sent by it before show it
    /// as it was. Fails with `.notFound` when there is none.
    public func remove(_ name: String, namespace: String = Names.defaultNamespace, actor: String = "system")
        async throws
    {
        _ = try await log.perform { scope in
            try scope.remove(
                try scope.namedPayloads.payload(name, namespace: namespace),
                else: "no named payload \(String(reflecting: name)) in namespace \(namespace) (muster payloads list)",
                recording: NamedPayloadRemoved(name: name), in: Streams.payload(name), namespace: namespace,
                actor: actor)
        }
    }

    /// The payload stored under `name`, as given; nil when there is none.
    public func get(_ name: String, namespace: String = Names.defaultNamespace) throws -> Data? {
        try log.read { try $0.namedPayloads.payload(name, namespace: namespace).map { Data($0) } }
    }

    /// Every named payload of the namespace, by name, each as given.
    public func list(namespace: String = Names.defaultNamespace) throws -> [(name: String, payload: Data)] {
        try log.read { try $0.namedPayloads.payloads(namespace: namespace) }.map { ($0.name, Data($0.payload)) }
    }

    /// The named payload `base` overridden by the sent one (seed 000 "Overriding a common payload"):
    /// every top-level property the sent payload has (`responseTopic`, `state`, …) replaces the
    /// named one's; its `fields` modify the named fields with the same `id` (property by property,
    /// so `{"id": "x", "default": "Red"}` changes only the default) and the others are added after
    /// them. `payloadName` is dropped: the result is the payload itself.
    public static func merge(_ sent: [String: JSONValue], over base: [String: JSONValue]) -> [String: JSONValue] {
        var result = base
        for (key, value) in sent where key != "payloadName" && key != "fields" { result[key] = value }
        result["payloadName"] = nil
        guard let added = sent["fields"]?.arrayValue else { return result }
        var fields = base["fields"]?.arrayValue ?? []
        for field in added {
            if let properties = field.objectValue, let id = properties["id"]?.stringValue,
                let index = fields.firstIndex(where: { $0.objectValue?["id"]?.stringValue == id }),
                var merged = fields[index].objectValue
            {
                for (key, value) in properties { merged[key] = value }
                fields[index] = .object(merged)
            } else {
                fields.append(field)
            }
        }
        result["fields"] = .array(fields)
        return result
    }
}

extension ProjectionView<NamedPayloadProjection> {
    /// The payload a device shows for `sent`: `sent` itself when it names no stored payload, else the
    /// named payload overridden by what `sent` carries (see `NamedPayloads.merge`). Nil when the name is unknown.
    /// A message sent before its payload was removed (`wasSent`) shows the payload as it was; a new send cannot name a
    /// removed one.
    func resolve(_ sent: [UInt8], namespace: String, wasSent: Bool = true) throws -> Data? {
        guard let object = try? JSONValue(json: Data(sent)).objectValue,
            let name = object["payloadName"]?.stringValue
        else { return Data(sent) }
        guard let named = try wasSent ? shown(name, namespace: namespace) : payload(name, namespace: namespace),
            let base = try? JSONValue(json: Data(named)).objectValue
        else { return nil }
        return JSONValue.object(NamedPayloads.merge(object, over: base)).jsonData()
    }
}
