import EventLog
import Forms
import Foundation
import Geo
import MQTTConnect
import Muster
import MusterWire
import PushDelivery

/// The domain verbs on a data directory, through the domain's services; `actor` "cli" unless the verb says who.
/// The log stays open while the verb runs (``BackendOptions/run(namespace:creating:_:)`` closes it).
struct LocalBackend: Backend {
    let log: EventLog
    let namespace: String

    /// A user the verb must be told: a data directory has no logged-in user to default to.
    private func named(_ user: String?, _ missing: String) throws -> String {
        guard let user else { throw CommandFailure.invalid(missing) }
        return user
    }

    /// Refuses a user the namespace does not have (a typo), as `quota` does, rather than answering for nobody.
    func requireUser(_ user: String) throws {
        guard try Directory(log: log).user(user, namespace: namespace) != nil else {
            throw CommandFailure.invalid("no user named \(user) in namespace \(namespace); see muster users list")
        }
    }

    func addUser(_ user: User, password: String?) async throws -> UserEntry {
        let added = try await Directory(log: log).addUser(
            user.username, password: password, email: user.email, timeZone: user.timeZone, isAdmin: user.isAdmin,
            firstName: user.firstName, lastName: user.lastName, phone: user.phone, namespace: namespace, actor: "cli")
        return UserEntry(User(added), namespace: namespace)
    }

    func needsCurrentPassword(toChange user: String) -> Bool { false }

    func changePassword(of user: String, to password: String, current: String?) async throws -> UserEntry {
        let changed = try await Directory(log: log).changePassword(
            user, to: password, namespace: namespace, actor: "cli")
        return UserEntry(User(changed), namespace: namespace)
    }

    func users() async throws -> [UserEntry] {
        try Directory(log: log).users(namespace: namespace).map {
            UserEntry(User($0), namespace: namespace)
        }
    }

    func changeUser(_ user: String, _ changes: UserChanges) async throws -> UserEntry {
        let changed = try await Directory(log: log).changeUser(user, changes, namespace: namespace, actor: "cli")
        return UserEntry(User(changed), namespace: namespace)
    }

    func sessions(of user: String?, all: Bool) async throws -> [OpenSession] {
        if let user { try requireUser(user) }
        return try Sessions(log: log).open(user: user, namespace: namespace)
    }

    func endSession(_ id: UUID) async throws {
        try await Sessions(log: log).end(id, namespace: namespace, actor: "cli")
    }

    func removeUser(_ user: String) async throws -> UserRemoval {
        try await Directory(log: log).removeUser(user, namespace: namespace, actor: "cli")
    }

    func defineGroup(_ group: Group) async throws -> Group {
        let defined = try await Directory(log: log).defineGroup(
            group.name, members: group.members, namespace: namespace, actor: "cli")
        return Group(name: defined.name, members: defined.members)
    }

    func removeGroup(_ name: String) async throws {
        try await Directory(log: log).removeGroup(name, namespace: namespace, actor: "cli")
    }

    func groups() async throws -> [Group] {
        try Directory(log: log).groups(namespace: namespace).map { Group(name: $0.name, members: $0.members) }
    }

    func register(
        user: String?, deviceId: String, deviceName: String, platform: PushTarget.Platform, token: String?,
        publishTopic: String?
    ) async throws -> PushTarget {
        try PushTargetCheck.check(platform: platform, token: token)
        let target = PushTargetRegistered(
            user: try named(user, "name the device's user: --user USER"), deviceId: deviceId, deviceName: deviceName,
            platform: platform, token: token, publishTopic: publishTopic)
        try await Directory(log: log).register(target, namespace: namespace, actor: "cli")
        return PushTarget(target)
    }

    func devices(user: String?) async throws -> [PushTarget] {
        try Directory(log: log).devices(user: user, namespace: namespace).map(PushTarget.init)
    }

    func unregister(deviceId: String, user: String?) async throws {
        let user = try named(user, "name the device's user: --user USER")
        guard
            try await Directory(log: log).unregister(
                user: user, deviceId: deviceId, namespace: namespace, actor: "cli")
        else {
            throw CommandFailure.invalid(
                "user \(user) has no device \(deviceId) in namespace \(namespace); see muster devices list")
        }
    }

    func send(
        title: String, body: String, payload: Data, to recipients: Recipients, source: String?, sender: String,
        dialog: DialogSenderSettings
    ) async throws -> SentNotification {
        let result = try await Notifications(log: log).send(
            to: recipients.users, groups: recipients.groups, all: recipients.all, title: title,
            body: body, source: source, payload: payload, namespace: namespace, actor: sender, dialog: dialog)
        Output.warn(result.warnings)
        return result.sent
    }

    func inbox(user: String?) async throws -> [InboxItem] {
        let user = try named(user, "name the user whose inbox to list: muster inbox USER")
        try requireUser(user)
        return try Notifications(log: log).inbox(user: user, namespace: namespace).map(InboxItem.init)
    }

    func withdraw(_ messageIds: [UUID]) async throws {
        try await Notifications(log: log).withdraw(messageIds, namespace: namespace, actor: "cli")
    }

    func sends(limit: Int, before: UUID?) async throws -> [SendOverview] {
        try Notifications(log: log).sends(namespace: namespace, before: before, limit: limit)
    }

    func send(_ sendId: UUID, state: SendOverview.State?, from: Int, limit: Int) async throws -> SendOverview {
        guard
            let send = try Notifications(log: log).send(
                sendId, namespace: namespace, state: state, from: from, limit: limit)
        else { throw noSend(sendId) }
        return send
    }

    func withdrawPending(ofSend sendId: UUID) async throws -> SendWithdrawal {
        guard
            let withdrawn = try await Notifications(log: log).withdrawPending(
                ofSend: sendId, namespace: namespace, actor: "cli")
        else { throw noSend(sendId) }
        return SendWithdrawal(sendId: sendId, withdrawn: withdrawn)
    }

    private func noSend(_ sendId: UUID) -> MusterError {
        MusterError(
            .notFound, "no send \(sendId.uuidString.lowercased()) in namespace \(namespace) (muster sends list)",
            field: "id")
    }

    func respond(_ answer: Answer) async throws -> ResponseObject {
        let user = try named(answer.user, "name the responding user: --user USER")
        let respondent = Respondent(
            user: user, deviceId: answer.deviceId, deviceName: answer.deviceName, submitValue: answer.submitValue,
            at: answer.location.map { .init(latitude: $0.latitude, longitude: $0.longitude) }, namespace: namespace)
        let notifications = Notifications(log: log)
        if let request = answer.request {
            return try await notifications.respond(toRequest: request, values: answer.values, as: respondent).response
        }
        return try await notifications.respond(messageId: answer.messageId!, values: answer.values, as: respondent)
            .response
    }

    func listen(_ filter: TopicFilter, topic: String, from: UInt64?) async throws
        -> any AsyncSequence<[UInt8], any Error> & Sendable
    {
        // Read as the lines are printed: a backlog is never held in memory.
        Notifications(log: log).listen(filter, namespace: namespace, from: from).map { Array($0.json) }
    }

    func putPayload(name: String, payload: Data) async throws -> StoredPayload {
        let result = try await NamedPayloads(log: log).put(name, payload: payload, namespace: namespace, actor: "cli")
        Output.warn(result.warnings)
        return StoredPayload(
            name: result.name, replaced: result.replaced, warnings: result.warnings.isEmpty ? nil : result.warnings)
    }

    func payloads() async throws -> [NamedPayload] {
        try NamedPayloads(log: log).list(namespace: namespace).map {
            NamedPayload(name: $0.name, payload: try JSONValue(json: $0.payload))
        }
    }

    func payload(name: String) async throws -> String {
        guard let payload = try NamedPayloads(log: log).get(name, namespace: namespace) else {
            throw CommandFailure.invalid("no named payload \(String(reflecting: name)) in namespace \(namespace)")
        }
        return String(decoding: payload, as: UTF8.self)
    }

    func putRequest(name: String, title: String, body: String, topic: String, payload: Data) async throws
        -> RequestTemplate
    {
        let result = try await Requests(log: log).put(
            name, title: title, body: body, responseTopic: topic, payload: payload, namespace: namespace, actor: "cli")
        Output.warn(result.warnings)
        return try RequestTemplate(result.template, warnings: result.warnings)
    }

    func requests() async throws -> [RequestTemplate] {
        try Requests(log: log).list(namespace: namespace).map { try RequestTemplate($0) }
    }

    func removePayload(name: String) async throws {
        try await NamedPayloads(log: log).remove(name, namespace: namespace, actor: "cli")
    }

    func removeRequest(name: String) async throws {
        try await Requests(log: log).remove(name, namespace: namespace, actor: "cli")
    }

    func putDocument(file: URL, kind: MediaKind?, contentType: String?, user: String) async throws -> DocumentStored {
        let document = try await Muster.Documents(log: log).put(
            file: file, kind: kind, contentType: contentType, user: user, namespace: namespace)
        return DocumentStored(name: document.name, size: document.size, blob: document.blob)
    }

    func documents(user: String?) async throws -> [UploadedDocument] {
        let listed = try Muster.Documents(log: log).uploads(of: user, namespace: namespace)
        // An uploader need not be a user (`documents put` uploads as `cli`); a name that is neither is a typo.
        if let user, listed.isEmpty { try requireUser(user) }
        return listed.map(UploadedDocument.init)
    }

    func removeDocument(name: String) async throws {
        try await Muster.Documents(log: log).remove(name, namespace: namespace, actor: "cli")
    }

    func writeDocument(name: String, to output: String?) async throws {
        let documents = Muster.Documents(log: log)
        if let output {
            try documents.get(name, to: URL(fileURLWithPath: output), namespace: namespace)
        } else {
            signal(SIGPIPE, SIG_IGN)
            try documents.get(name, to: FileHandle.standardOutput, namespace: namespace)
        }
    }

    func set(_ setting: Setting, to value: String) async throws -> NamespaceSetting {
        let stored = try await Settings(log: log).set(setting, to: value, namespace: namespace, actor: "cli")
        return NamespaceSetting(
            Settings.Entry(key: setting, value: stored, isDefault: false))
    }

    func reset(_ setting: Setting) async throws -> NamespaceSetting {
        NamespaceSetting(try await Settings(log: log).reset(setting, namespace: namespace, actor: "cli"))
    }

    func settings() async throws -> [NamespaceSetting] {
        try Settings(log: log).list(namespace: namespace).map(NamespaceSetting.init)
    }

    func audit(_ filter: Muster.Audit.Filter, _ each: (AuditLine) throws -> Bool) async throws {
        let encoder = MusterJSON.encoder()
        try Muster.Audit(log: log).entries(filter) { entry, recordedAt in
            try each(
                AuditLine(
                    json: Array(try encoder.encode(entry)),
                    cells: [String(entry.position), EventJSON.timestamp(recordedAt), entry.what.rawValue, entry.detail]
                ))
        }
    }

    func counters(area: String?, kind: Area.Kind?) async throws -> [RuleCounters.Counter] {
        try RuleCounters(log: log).counters(area: area, kind: kind, namespace: namespace)
    }

    func quota(user: String, date: String?) async throws -> RuleCounters.QuotaReport {
        try requireUser(user)
        let counters = RuleCounters(log: log)
        let day = try date ?? counters.today(user: user, namespace: namespace)
        return try counters.report(user: user, day: day, namespace: namespace)
    }

    func locate(_ device: DeviceReportOptions, latitude: Double, longitude: Double, accuracy: Double?) async throws
        -> LocationAnswer
    {
        try await RuleEngine(log: log).report(
            RuleEngine.LocationReport(
                user: device.user, deviceId: device.deviceId, latitude: latitude, longitude: longitude,
                accuracy: accuracy, at: device.time, namespace: namespace))
    }

    func sighted(
        _ device: DeviceReportOptions, uuid: String, major: Int, minor: Int, rssi: Int, txPower: Int,
        proximity: String?
    ) async throws -> LocationAnswer {
        try await RuleEngine(log: log).report(
            RuleEngine.BeaconReport(
                user: device.user, deviceId: device.deviceId, proximityUUID: uuid, major: major, minor: minor,
                rssi: rssi, measuredPower: txPower, proximity: try proximity.map(BeaconProximity.init(reported:)),
                at: device.time, namespace: namespace))
    }

    func transition(
        _ device: DeviceReportOptions, area: String, kind: Area.Kind?, trigger: String, latitude: Double?,
        longitude: Double?
    ) async throws -> LocationAnswer {
        try await RuleEngine(log: log).report(
            RuleEngine.TransitionReport(
                user: device.user, deviceId: device.deviceId, area: area, kind: kind, trigger: trigger, at: device.time,
                latitude: latitude, longitude: longitude, namespace: namespace))
    }
}
