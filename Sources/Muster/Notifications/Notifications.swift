import EventLog
import Forms
import Foundation
import MQTTConnect
import MusterWire

/// Sending form payloads to people, their inboxes, and their responses.
///
/// Recipient and inbox checks read the projections inside the writer's transaction, so a check and
/// the event it allows cannot be separated by another command.
public struct Notifications: Sendable {
    let log: EventLog

    public init(log: EventLog) { self.log = log }

    /// What a send did.
    public struct SendResult: Sendable, Hashable, Encodable {
        /// The send's id (its `PayloadSent`'s), for `sends(…)` and `send(_:)`.
        public var sendId: UUID
        /// One per recipient, in the same order.
        public var messageIds: [UUID]
        public var recipients: [String]
        /// Payload problems the app ignores (unknown field types), one line each.
        public var warnings: [String]
        /// What the recipients' MQTT devices cannot be shown, per device and field.
        public var notCarried: [SentNotification.NotCarried]

        /// The answer as the API writes it.
        public var sent: SentNotification {
            SentNotification(
                messageIds: messageIds, recipients: recipients, notCarried: notCarried,
                warnings: warnings.isEmpty ? nil : warnings, sendId: sendId)
        }

        public func encode(to encoder: any Encoder) throws { try sent.encode(to: encoder) }
    }

    // MARK: Sending

    /// Sends a payload to users, to the members of groups and/or to every user of the namespace
    /// (sender included); each recipient, once, gets a message in their inbox.
    ///
    /// A payload of any size is sent (seed 000's sendPayload stores it and pushes what fits): the push carries
    /// the whole message when it fits the provider's limit and the namespace's `pushSizeLimit`, else its id.
    ///
    /// `dialog` is what the sender sets on the DialogMessage of recipients' MQTT devices; it is kept with the send.
    ///
    /// Throws `FormRejection` for an invalid payload, `.invalidArgument` for an unknown user or group, or no
    /// recipient. `payload` is stored as given.
    public func send(
        to users: [String] = [], groups: [String] = [], all: Bool = false, title: String, body: String,
        source: String? = nil, payload: Data, namespace: String = Names.defaultNamespace, actor: String = "system",
        dialog: DialogSenderSettings = .none
    ) async throws -> SendResult {
        let json = try? JSONValue(json: payload)
        return try await send(
            to: users, groups: groups, all: all, title: title, body: body, source: source,
            parsed: json.map(Payload.init(json:)) ?? Payload.parse(payload), bytes: Array(payload),
            namespace: namespace, actor: actor, dialog: dialog)
    }

    /// Sends a payload parsed already (an HTTP body); it is stored as its compact encoding. See
    /// `send(to:groups:all:title:body:source:payload:namespace:actor:dialog:)` with the payload's text.
    public func send(
        to users: [String] = [], groups: [String] = [], all: Bool = false, title: String, body: String,
        source: String? = nil, payload: JSONValue, namespace: String = Names.defaultNamespace, actor: String = "system",
        dialog: DialogSenderSettings = .none
    ) async throws -> SendResult {
        let bytes = payload.jsonData()
        return try await send(
            to: users, groups: groups, all: all, title: title, body: body, source: source,
            parsed: Payload(json: payload), bytes: Array(bytes), namespace: namespace, actor: actor, dialog: dialog)
    }

    /// Checks and appends a send: `parsed` is `bytes` parsed.
    private func send(
        to users: [String], groups: [String], all: Bool, title: String, body: String, source: String?,
        parsed: Payload, bytes: [UInt8], namespace: String, actor: String, dialog: DialogSenderSettings
    ) async throws -> SendResult {
        try Names.validate(namespace, as: "namespace")
        try Names.validate(title, as: "title", field: "title", maximumBytes: 1024)
        guard !users.isEmpty || !groups.isEmpty || all else {
            throw MusterError(.invalidArgument, "no recipients: name users, groups or all")
        }
        let indirect = parsed.payloadName
        let report = parsed.validate()
        // An indirect payload is checked once resolved, against the named payload it refers to.
        if indirect == nil {
            guard report.isValid else { throw FormRejection(subject: "payload", errors: report.errors) }
        }
        let (sendId, recipients, resolvedReport, notCarried) = try await log.perform { scope in
            var topic = parsed.responseTopic ?? ""
            var report = report
            var shown = parsed
            if let indirect {
                guard let resolved = try scope.namedPayloads.resolve(bytes, namespace: namespace, wasSent: false) else {
                    throw MusterError(
                        .invalidArgument,
                        "no named payload \(String(reflecting: indirect)) in namespace \(namespace); store it first (muster payloads put); nothing was sent"
                    )
                }
                let full = Payload.parse(resolved)
                report = full.validate()
                guard report.isValid else { throw FormRejection(subject: "payload", errors: report.errors) }
                topic = full.responseTopic ?? ""
                shown = full
            }
            try Self.checkInstantSender(dialog, shown)
            let names = try Self.recipients(users, groups, all, namespace, scope.directory)
            let sent = PayloadSent(
                sender: actor, title: title, body: body, source: source, payload: bytes, responseTopic: topic,
                recipients: names.map { PayloadSent.Recipient(user: $0, messageId: EventID.make()) },
                mqtt: PayloadSent.DialogSettings(dialog))
            let event = sent.newEvent(actor: actor)
            try scope.append(
                AppendRequest(
                    namespace: namespace, stream: Streams.send(sent.recipients[0].messageId),
                    expectedVersion: .noStream, events: [event]))
            let notCarried = try Self.notCarried(
                shown, to: sent.recipients, namespace: namespace, devices: scope.mqttDevices)
            return (event.id, sent.recipients, report, notCarried)
        }
        return SendResult(
            sendId: sendId, messageIds: recipients.map(\.messageId), recipients: recipients.map(\.user),
            warnings: resolvedReport.warnings.map(\.description), notCarried: notCarried)
    }

    /// Users first, then group members, then everyone; each name once, first place kept.
    private static func recipients(
        _ users: [String], _ groups: [String], _ all: Bool, _ namespace: String,
        _ directory: ProjectionView<DirectoryProjection>
    ) throws -> [String] {
        var names = users
        let unknownUsers = try users.filter { try directory.user($0, namespace: namespace) == nil }
        var unknownGroups: [String] = []
        for name in groups {
            guard let group = try directory.group(name, namespace: namespace) else {
                unknownGroups.append(name)
                continue
            }
            names += group.members
        }
        guard unknownUsers.isEmpty, unknownGroups.isEmpty else {
            var parts: [String] = []
            if !unknownUsers.isEmpty { parts.append("no user named \(unknownUsers.joined(separator: ", "))") }
            if !unknownGroups.isEmpty { parts.append("no group named \(unknownGroups.joined(separator: ", "))") }
            // The member at fault: the first named that is unknown (`to` for users, `groups` for groups).
            throw MusterError(
                .invalidArgument, "\(parts.joined(separator: " and ")) in namespace \(namespace); nothing was sent",
                field: unknownUsers.isEmpty ? "groups" : "to")
        }
        if all { names += try directory.users(namespace: namespace).map(\.name) }
        var seen = Set<String>()
        let unique = names.filter { seen.insert($0).inserted }
        guard !unique.isEmpty else {
            throw MusterError(.invalidArgument, "no recipients: the groups and namespace \(namespace) have no users")
        }
        return unique
    }

    // MARK: Inboxes

    /// The user's pending messages, oldest first.
    public func inbox(user: String, namespace: String = Names.defaultNamespace) throws -> [PayloadMessage] {
        try log.read { try $0.inbox.pending(user: user, namespace: namespace) }
    }

    /// Whether a message of this id was sent to anyone in `namespace` (what an administrator of it may look at).
    public func wasSent(id: UUID, namespace: String = Names.defaultNamespace) throws -> Bool {
        try log.read { try $0.inbox.wasSent(id, namespace: namespace) }
    }

    /// A message sent to `user`, with its payload; nil when there is none such (or it was sent to someone else).
    public func message(id: UUID, user: String, namespace: String = Names.defaultNamespace) throws -> StoredMessage? {
        try log.read { reader in
            // A withdrawn message is no longer its recipient's to read.
            guard let found = try reader.sentMessage(id, user: user, namespace: namespace), found.state != .withdrawn
            else { return nil }
            let sent = found.send.sent
            let resolved = try reader.namedPayloads.resolve(sent.payload, namespace: namespace)
            return StoredMessage(
                message: found.message, sender: sent.sender, source: sent.source,
                payload: resolved ?? Data(sent.payload),
                sentPayload: Data(sent.payload))
        }
    }
}
