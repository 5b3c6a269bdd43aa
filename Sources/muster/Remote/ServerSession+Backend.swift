import Forms
import Foundation
import MQTTConnect
import Muster
import MusterClient

/// The domain verbs on a server, as the logged-in user: an option naming someone else is refused
/// (``requireSelf(_:option:why:)``), the namespace is the login's.
extension ServerSession: Backend {
    func addUser(_ user: User, password: String?) async throws -> UserEntry {
        guard let password else {
            throw CommandFailure.invalid("over HTTP a new user needs a password: give it with --password-stdin")
        }
        let created = try await call {
            try await $0.createInternalUser(
                username: user.username, password: password, email: user.email, firstName: user.firstName,
                lastName: user.lastName, phone: user.phone, timeZone: user.timeZone, isAdmin: user.isAdmin)
        }
        return UserEntry(created, namespace: namespace)
    }

    func needsCurrentPassword(toChange user: String) -> Bool { user == username }

    func changePassword(of user: String, to password: String, current: String?) async throws -> UserEntry {
        let changed = try await call {
            try await $0.changePassword(of: user, to: password, currentPassword: user == username ? current : nil)
        }
        return UserEntry(changed, namespace: namespace)
    }

    /// The server does not say who has a password: `?` in the table.
    func users() async throws -> [UserEntry] {
        try await call { try await $0.users() }.map { UserEntry($0, namespace: namespace) }
    }

    func changeUser(_ user: String, _ changes: UserChanges) async throws -> UserEntry {
        UserEntry(try await call { try await $0.changeUser(user, changes) }, namespace: namespace)
    }

    func sessions(of user: String?, all: Bool) async throws -> [OpenSession] {
        try await call { all ? try await $0.allSessions() : try await $0.sessions(of: user) }
    }

    func endSession(_ id: UUID) async throws { try await call { try await $0.endSession(id) } }

    func removeUser(_ user: String) async throws -> UserRemoval {
        try await call { try await $0.removeUser(user) }
    }

    func defineGroup(_ group: Group) async throws -> Group {
        try await call { try await $0.defineGroup(name: group.name, members: group.members) }
    }

    func groups() async throws -> [Group] { try await call { try await $0.groups() } }

    func removeGroup(_ name: String) async throws { try await call { try await $0.removeGroup(name: name) } }

    func register(
        user: String?, deviceId: String, deviceName: String, platform: PushTarget.Platform, token: String?,
        publishTopic: String?
    ) async throws -> PushTarget {
        try requireSelf(user, option: "--user", why: Self.ownDevices)
        return try await call {
            try await $0.registerDevice(
                deviceId: deviceId, deviceName: deviceName, platform: platform, token: token,
                publishTopic: publishTopic)
        }
    }

    /// One's own devices; an administrator may name another user.
    func devices(user: String?) async throws -> [PushTarget] {
        guard let user, user != username else { return try await call { try await $0.devices() } }
        return try await call { try await $0.devices(of: user) }
    }

    /// One of one's own devices; an administrator may name another user's.
    func unregister(deviceId: String, user: String?) async throws {
        guard let user, user != username else {
            return try await call { try await $0.unregisterDevice(deviceId: deviceId) }
        }
        try await call { try await $0.unregisterDevice(deviceId: deviceId, of: user) }
    }

    /// Why `--user` cannot name someone else over HTTP.
    private static let ownDevices = "devices are each user's own"

    func send(
        title: String, body: String, payload: Data, to recipients: Recipients, source: String?, sender: String,
        dialog: DialogSenderSettings
    ) async throws -> SentNotification {
        if sender != "cli" { try requireSelf(sender, option: "--sender", why: "the sender is who sends it") }
        let document = try Self.payload(payload)
        let mqtt = dialog == .none ? nil : dialog.json
        let sent = try await call {
            try await $0.send(title: title, body: body, payload: document, to: recipients, source: source, mqtt: mqtt)
        }
        Output.warn(sent.warnings ?? [])
        return sent
    }

    func inbox(user: String?) async throws -> [InboxItem] {
        try requireSelf(user, option: "USER", why: "an inbox is read by its owner")
        return try await call { try await $0.inbox() }
    }

    func withdraw(_ messageIds: [UUID]) async throws {
        _ = try await call { try await $0.withdrawMessages(ids: messageIds) }
    }

    func sends(limit: Int, before: UUID?) async throws -> [SendOverview] {
        try await call { try await $0.sends(limit: limit, before: before) }
    }

    func send(_ sendId: UUID, state: SendOverview.State?, from: Int, limit: Int) async throws -> SendOverview {
        try await call { try await $0.sendOverview(id: sendId, state: state, from: from, limit: limit) }
    }

    func withdrawPending(ofSend sendId: UUID) async throws -> SendWithdrawal {
        try await call { try await $0.withdrawPending(ofSend: sendId) }
    }

    func respond(_ answer: Answer) async throws -> ResponseObject {
        try requireSelf(answer.user, option: "--user", why: "a response is its user's own")
        let values = try FormRejection.answers(answer.values)
        return try await call { client in
            if let request = answer.request {
                try await client.respond(
                    toRequest: request, deviceId: answer.deviceId, deviceName: answer.deviceName,
                    submitValue: answer.submitValue, values: values, location: answer.location)
            } else {
                try await client.respond(
                    messageId: answer.messageId!, deviceId: answer.deviceId, deviceName: answer.deviceName,
                    submitValue: answer.submitValue, values: values, location: answer.location)
            }
        }
    }

    /// Server-Sent Events of `GET /api/v1/topics/{filter…}` (administrators); the stream resumes by itself.
    func listen(_ filter: TopicFilter, topic: String, from: UInt64?) async throws
        -> any AsyncSequence<[UInt8], any Error> & Sendable
    {
        // `--from P` is inclusive; the stream resumes after a position.
        try await relay(client.topic(topic, after: from.map { String(max($0, 1) - 1) })) { delivery in
            switch delivery.event {
            case .response(let response): Array(try MusterJSON.encoder().encode(response))
            case .publish(let document): Array(document.jsonData())
            }
        }
    }

    func putPayload(name: String, payload: Data) async throws -> StoredPayload {
        let document = try Self.payload(payload)
        let stored = try await call { try await $0.putPayload(name: name, document) }
        Output.warn(stored.warnings ?? [])
        return stored
    }

    func payloads() async throws -> [NamedPayload] { try await call { try await $0.payloads() } }

    /// The payload's JSON, keys sorted.
    func payload(name: String) async throws -> String {
        try await call { try await $0.payload(name: name) }.description
    }

    func putRequest(name: String, title: String, body: String, topic: String, payload: Data) async throws
        -> RequestTemplate
    {
        let document = try Self.payload(payload)
        let template = RequestTemplate(name: name, title: title, body: body, responseTopic: topic, payload: document)
        let stored = try await call { try await $0.putRequest(template) }
        Output.warn(stored.warnings ?? [])
        return stored
    }

    func requests() async throws -> [RequestTemplate] { try await call { try await $0.requests() } }

    func removePayload(name: String) async throws { try await call { try await $0.removePayload(name: name) } }

    func removeRequest(name: String) async throws { try await call { try await $0.removeRequest(name: name) } }

    func putDocument(file: URL, kind: MediaKind?, contentType: String?, user: String) async throws -> DocumentStored {
        if user != "cli" { try requireSelf(user, option: "--user", why: "the uploader is who uploads it") }
        let content: Data
        do {
            content = try Data(contentsOf: file)
        } catch {
            throw CommandFailure.invalid("cannot read \(file.path): \(error.localizedDescription)")
        }
        // The same checks as the upload of a file to a data directory; the server makes them again.
        let upload = try Muster.Documents.describe(file: file, kind: kind, contentType: contentType)
        let name = try await call {
            try await $0.uploadDocument(
                content, contentType: upload.contentType, kind: upload.kind, fileExtension: upload.fileExtension)
        }
        return DocumentStored(name: name, size: UInt64(content.count), blob: nil)
    }

    /// The logged-in user's uploads; an administrator may name another user.
    func documents(user: String?) async throws -> [UploadedDocument] {
        try await call { try await $0.documents(uploadedBy: user) }
    }

    /// One of the logged-in user's uploads, or any of the namespace for an administrator.
    func removeDocument(name: String) async throws { try await call { try await $0.removeDocument(name: name) } }

    /// The logged-in user's uploads, or any of the namespace for an administrator.
    func writeDocument(name: String, to output: String?) async throws {
        let document = try await call { try await $0.document(name: name) }
        if let output {
            do {
                try document.data.write(to: URL(fileURLWithPath: output))
            } catch {
                throw CommandFailure.failed("cannot write \(output): \(error.localizedDescription)")
            }
        } else {
            signal(SIGPIPE, SIG_IGN)
            try? FileHandle.standardOutput.write(contentsOf: document.data)
        }
    }

    func set(_ setting: Setting, to value: String) async throws -> NamespaceSetting {
        try await call { try await $0.setSetting(setting.rawValue, value: value) }
    }

    func reset(_ setting: Setting) async throws -> NamespaceSetting {
        try await call { try await $0.resetSetting(setting.rawValue) }
    }

    /// A setting this release does not know is left out.
    func settings() async throws -> [NamespaceSetting] {
        try await call { try await $0.settings() }.filter { Setting(rawValue: $0.key) != nil }
    }

    /// The entries of the login's namespace, the time as the server wrote it (to the millisecond).
    func audit(_ filter: Muster.Audit.Filter, _ each: (AuditLine) throws -> Bool) async throws {
        let entries = try await call {
            try await $0.audit(
                user: filter.user, deviceId: filter.deviceId, since: filter.since, area: filter.area, rule: filter.rule)
        }
        let encoder = MusterJSON.encoder()
        for entry in entries {
            let cells = [String(entry.position), entry.time, entry.what.rawValue, entry.detail]
            guard try each(AuditLine(json: Array(try encoder.encode(entry)), cells: cells)) else { return }
        }
    }

    func counters(area: String?, kind: Area.Kind?) async throws -> [RuleCounters.Counter] {
        try await call { try await $0.counters(area: area, kind: kind?.rawValue) }.map {
            try JSONDecoder().decode(RuleCounters.Counter.self, from: $0.jsonData())
        }
    }

    func quota(user: String, date: String?) async throws -> RuleCounters.QuotaReport {
        let answer = try await call { try await $0.quota(user: user, date: date) }
        return try JSONDecoder().decode(RuleCounters.QuotaReport.self, from: answer.jsonData())
    }

    func locate(_ device: DeviceReportOptions, latitude: Double, longitude: Double, accuracy: Double?) async throws
        -> LocationAnswer
    {
        try requireSelf(device.user, option: "--user", why: "a location is reported by its own user")
        return try await call {
            try await $0.publishCurrentLocation(
                deviceId: device.deviceId, latitude: latitude, longitude: longitude, accuracy: accuracy,
                at: device.time)
        }
    }

    func sighted(
        _ device: DeviceReportOptions, uuid: String, major: Int, minor: Int, rssi: Int, txPower: Int,
        proximity: String?
    ) async throws -> LocationAnswer {
        try requireSelf(device.user, option: "--user", why: "a sighting is reported by its own user")
        return try await call {
            try await $0.reportBeaconSighting(
                deviceId: device.deviceId, proximityUUID: uuid, major: major, minor: minor, rssi: rssi,
                txPower: txPower, proximity: proximity, at: device.time)
        }
    }

    func transition(
        _ device: DeviceReportOptions, area: String, kind: Area.Kind?, trigger: String, latitude: Double?,
        longitude: Double?
    ) async throws -> LocationAnswer {
        try requireSelf(device.user, option: "--user", why: "a transition is reported by its own user")
        return try await call {
            try await $0.reportTransition(
                deviceId: device.deviceId, area: area, kind: kind?.rawValue, trigger: trigger, latitude: latitude,
                longitude: longitude, at: device.time)
        }
    }

    /// A payload parsed for a server; text that is not JSON is refused as the local verbs refuse it (the
    /// server judges the rest).
    private static func payload(_ text: Data) throws -> JSONValue {
        guard let value = try? JSONValue(json: text) else {
            throw FormProblems(
                subject: "payload", problems: [.init(field: "payload", message: "is not valid JSON [not-json]")])
        }
        return value
    }
}
