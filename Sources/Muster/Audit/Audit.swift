import EventLog
import Foundation
import MusterWire

/// What was sent to people and what they answered, explained from the log alone (no projection):
/// sends, responses, directory and device changes, uploads, logins (failed ones too), refreshes and
/// logouts, each as an `AuditEntry`, oldest first.
public struct Audit: Sendable {
    let log: EventLog
    /// Most recipients an entry lists (a send to everyone can have 100,000).
    public static let recipientsShown = 100

    public init(log: EventLog) { self.log = log }

    /// Which entries to report.
    public struct Filter: Sendable, Hashable {
        /// Only what concerns this user: sends where they are a recipient or the sender, their
        /// responses, their account, groups they joined or left, their devices, uploads and sessions
        /// (failed logins under the name given).
        public var user: String?
        /// Only responses from this device, its registrations and the logins made from it.
        public var deviceId: String?
        /// Only events recorded at or after this time.
        public var since: Date?
        /// Only this namespace.
        public var namespace: String?
        /// Only what concerns this area: its definition, transitions and rule decisions.
        public var area: String?
        /// Only the decisions of this rule.
        public var rule: String?

        public init(
            user: String? = nil, deviceId: String? = nil, since: Date? = nil, namespace: String? = nil,
            area: String? = nil, rule: String? = nil
        ) {
            self.user = user
            self.deviceId = deviceId
            self.since = since
            self.namespace = namespace
            self.area = area
            self.rule = rule
        }
    }

    /// Every matching entry, oldest first.
    public func entries(_ filter: Filter = Filter()) throws -> [AuditEntry] {
        var result: [AuditEntry] = []
        try entries(filter) { entry, _ in
            result.append(entry)
            return true
        }
        return result
    }

    /// Calls `body` with each matching entry and when its event was recorded (microseconds since 1970; the
    /// entry's `time` has milliseconds), oldest first, until it returns false.
    public func entries(_ filter: Filter, _ body: (AuditEntry, _ recordedAt: Int64) throws -> Bool) throws {
        let since = filter.since.map { Int64(($0.timeIntervalSince1970 * 1_000_000).rounded(.down)) }
        var scan = Scan(filter: filter)
        _ = try log.read { reader in
            try reader.events(EventQuery(namespace: filter.namespace)) { event in
                // Group membership is tracked from the start, so "left" is known even before --since.
                let found = try scan.entries(for: event)
                if let since, event.recordedAt < since { return true }
                for entry in found where scan.keeps(entry) {
                    guard try body(entry, event.recordedAt) else { return false }
                }
                return true
            }
        }
    }

    /// The state a scan keeps: group members and the titles of the user's messages.
    struct Scan {
        let filter: Filter
        var members: [String: [String]] = [:]
        var titles: [UUID: String] = [:]
        /// The messages withdrawn so far: a push of one after its withdrawal is the alert saying so.
        var withdrawn: Set<UUID> = []
        /// The area and rule of each area notification handed, for its performing or dismissal.
        var notices: [UUID: (area: String, rule: String)] = [:]
        /// Who uploaded each document (`namespace 0 name`), for its removal.
        var uploaders: [String: String] = [:]

        func keeps(_ entry: AuditEntry) -> Bool {
            if let deviceId = filter.deviceId, entry.deviceId != deviceId { return false }
            if let area = filter.area, entry.area != area { return false }
            if let rule = filter.rule, entry.rule != rule { return false }
            return true
        }

        /// Whether `name` is the user asked about (every user when none is).
        func concerns(_ name: String) -> Bool { filter.user == nil || filter.user == name }

        mutating func entries(for event: RecordedEvent) throws -> [AuditEntry] {
            func entry(_ what: AuditEntry.What, _ detail: String) -> AuditEntry {
                AuditEntry(
                    what, position: event.position, time: Timestamp.iso8601(microseconds: event.recordedAt),
                    namespace: event.namespace, actor: event.actor, detail: detail)
            }
            if let sent = try PayloadSent.decode(event) {
                return payloadSent(sent, entry(.payloadSent, ""))
            }
            if let response = try ResponseReceived.decode(event) {
                guard concerns(response.user) else { return [] }
                return [
                    entry(
                        .responseReceived,
                        "\(response.user) answered \(message(response.messageId)) from device \(response.deviceId) "
                            + "(\(response.deviceName)) with submitValue \(response.submitValue)"
                    ).about(
                        user: response.user, deviceId: response.deviceId, messageId: response.messageId,
                        title: titles[response.messageId], submitValue: response.submitValue)
                ]
            }
            if let withdrawn = try MessageWithdrawn.decode(event) {
                self.withdrawn.insert(withdrawn.messageId)
                // The recipient's, and the one who withdrew it (as a send is its sender's too).
                guard concerns(withdrawn.user) || concerns(event.actor) else { return [] }
                return [
                    entry(
                        .messageWithdrawn,
                        "\(message(withdrawn.messageId)) to \(withdrawn.user) withdrawn by \(event.actor)"
                    ).about(user: withdrawn.user, messageId: withdrawn.messageId, title: titles[withdrawn.messageId])
                ]
            }
            if let user = try UserCreated.decode(event) {
                guard concerns(user.name) else { return [] }
                let administrator = user.isAdmin ? ", administrator" : ""
                return [
                    entry(.userCreated, "user \(user.name) created (time zone \(user.timeZone)\(administrator))")
                        .about(user: user.name)
                ]
            }
            if let changed = try PasswordChanged.decode(event) {
                guard concerns(changed.name) else { return [] }
                let by = event.actor == changed.name ? "" : " by \(event.actor)"
                return [entry(.passwordChanged, "password of \(changed.name) changed\(by)").about(user: changed.name)]
            }
            if let changed = try UserChanged.decode(event) {
                guard concerns(changed.name) else { return [] }
                let administrator = changed.isAdmin ? ", administrator" : ""
                return [
                    entry(
                        .userChanged,
                        "user \(changed.name) changed by \(event.actor) (time zone \(changed.timeZone)\(administrator))"
                    ).about(user: changed.name)
                ]
            }
            if let removed = try UserRemoved.decode(event) {
                guard concerns(removed.name) else { return [] }
                return [entry(.userRemoved, "user \(removed.name) removed by \(event.actor)").about(user: removed.name)]
            }
            if let group = try GroupDefined.decode(event) {
                let key = "\(event.namespace)\u{0}\(group.name)"
                let before = Set(members[key] ?? [])
                members[key] = group.members
                let after = Set(group.members)
                var result: [AuditEntry] = []
                for name in group.members where !before.contains(name) && concerns(name) {
                    result.append(
                        entry(.groupJoined, "\(name) joined group \(group.name)").about(user: name, group: group.name))
                }
                for name in before.subtracting(after).sorted() where concerns(name) {
                    result.append(
                        entry(.groupLeft, "\(name) left group \(group.name)").about(user: name, group: group.name))
                }
                return result
            }
            if let gone = try GroupRemoved.decode(event) {
                let before = members.removeValue(forKey: "\(event.namespace)\u{0}\(gone.name)") ?? []
                return before.filter(concerns).map { name in
                    entry(.groupLeft, "\(name) left group \(gone.name): the group was removed")
                        .about(user: name, group: gone.name)
                }
            }
            if let target = try PushTargetRegistered.decode(event) {
                guard concerns(target.user) else { return [] }
                return [
                    entry(
                        .deviceRegistered,
                        "device \(target.deviceId) (\(target.deviceName), \(target.platform.rawValue)) registered for \(target.user)"
                    ).about(user: target.user, deviceId: target.deviceId)
                ]
            }
            if let gone = try PushTargetUnregistered.decode(event) {
                guard concerns(gone.user) else { return [] }
                return [
                    entry(
                        .deviceUnregistered,
                        "device \(gone.deviceId) of \(gone.user) unregistered" + (gone.reason.map { ": \($0)" } ?? "")
                    ).about(user: gone.user, deviceId: gone.deviceId, reason: gone.reason)
                ]
            }
            if let document = try DocumentUploaded.decode(event) {
                uploaders["\(event.namespace)\u{0}\(document.name)"] = document.uploader
                guard concerns(document.uploader) else { return [] }
                return [
                    entry(
                        .documentUploaded,
                        "\(document.uploader) uploaded \(document.name) (\(document.contentType), \(document.size) bytes)"
                    ).about(user: document.uploader, document: document.name)
                ]
            }
            if let removed = try DocumentRemoved.decode(event) {
                guard let uploader = uploaders.removeValue(forKey: "\(event.namespace)\u{0}\(removed.name)"),
                    concerns(uploader)
                else { return [] }
                return [
                    entry(.documentRemoved, "\(removed.name) of \(uploader) removed by \(event.actor)")
                        .about(user: uploader, document: removed.name)
                ]
            }
            if let found = try deliveryEntries(for: event, entry) { return found }
            if let found = try deviceDataEntries(for: event, entry) { return found }
            if let found = try noticeEntries(for: event, entry) { return found }
            if let found = try ruleEntries(for: event, entry) { return found }
            if let found = clusterEntries(for: event, entry) { return found }
            return try sessionEntries(for: event, entry)
        }

        /// A cluster node that became the namespace's primary (`PrimaryChanged`, appended by the node itself when it
        /// takes the namespace's lease: `muster serve --cluster`); nil for other events. It concerns no user.
        private func clusterEntries(
            for event: RecordedEvent, _ entry: (AuditEntry.What, String) -> AuditEntry
        ) -> [AuditEntry]? {
            guard event.type == "PrimaryChanged" else { return nil }
            guard filter.user == nil else { return [] }
            // The node is the event's actor; its body (`NamespaceLease.Holder`) also says where it serves.
            struct Holder: Decodable { var url: String }
            let url = (try? JSONDecoder().decode(Holder.self, from: Data(event.body.bytes))).map { " (\($0.url))" }
            return [
                entry(
                    .primaryChanged,
                    "node \(event.actor)\(url ?? "") became the primary of namespace \(event.namespace)")
            ]
        }

        /// Area changes, transitions and rule decisions; nil for other events.
        private func ruleEntries(
            for event: RecordedEvent, _ entry: (AuditEntry.What, String) -> AuditEntry
        ) throws -> [AuditEntry]? {
            if let defined = try AreaDefined.decode(event) {
                guard filter.user == nil else { return [] }
                let area = defined.area
                let rules = "\(area.rules.count) rule\(area.rules.count == 1 ? "" : "s")"
                return [
                    entry(
                        .areaDefined, "\(area.kind) \(area.id) (\(String(reflecting: area.name))) defined with \(rules)"
                    )
                    .about(area: area.id)
                ]
            }
            if let removed = try AreaRemoved.decode(event) {
                guard filter.user == nil else { return [] }
                let kind = Area.Kind(rawValue: removed.kind)?.description ?? "area"
                return [entry(.areaRemoved, "\(kind) \(removed.id) removed").about(area: removed.id)]
            }
            if let changed = try AreaCountsChanged.decode(event) {
                guard filter.user == nil else { return [] }
                let kind = Area.Kind(rawValue: changed.kind)?.description ?? changed.kind
                return [
                    entry(
                        .areaCountsChanged,
                        "rule \(changed.rule) of \(kind) \(changed.area): counts changed from \(changed.old) to \(changed.new); its counters start again"
                            + (changed.resetsGroup ? ", and group \(changed.group ?? "")'s for \(changed.trigger)" : "")
                    ).about(area: changed.area, rule: changed.rule)
                ]
            }
            if let transition = try AreaTransition.decode(event) {
                guard concerns(transition.user) else { return [] }
                let verb =
                    transition.trigger == "on_entry"
                    ? "entered" : transition.trigger == "on_exit" ? "left" : transition.trigger
                let waiting = transition.latches.map {
                    "rule \($0.rule) waits until \(Timestamp.iso8601(microseconds: $0.dueAt))"
                }
                return [
                    entry(
                        .areaTransition,
                        "\(transition.user)'s device \(transition.deviceId) \(verb) area \(transition.area) (\(transition.source.rawValue)\(transition.proximity.map { ", \($0)" } ?? ""))"
                            + (waiting.isEmpty ? "" : "; " + waiting.joined(separator: ", "))
                    ).about(user: transition.user, deviceId: transition.deviceId, area: transition.area)
                ]
            }
            /// A change to a geotrigger itself: no user's and no area's.
            func geotrigger(_ what: AuditEntry.What, _ id: String, _ detail: String) -> [AuditEntry] {
                filter.user == nil && filter.area == nil ? [entry(what, detail).about(geotrigger: id)] : []
            }
            if let defined = try GeotriggerDefined.decode(event) {
                let trigger = defined.geotrigger
                return geotrigger(
                    .geotriggerDefined, trigger.id,
                    "geotrigger \(trigger.id) (\(String(reflecting: trigger.name))) defined: \(trigger.rule.rawValue), \(trigger.fences.isEmpty ? (trigger.areas.isEmpty ? "every geofence" : "areas " + trigger.areas.joined(separator: ", ")) : "\(trigger.fences.count) fences"), buffer \(trigger.bufferDistance) m"
                )
            }
            if let removed = try GeotriggerRemoved.decode(event) {
                return geotrigger(.geotriggerRemoved, removed.id, "geotrigger \(removed.id) removed")
            }
            if let started = try GeotriggerMonitorStarted.decode(event) {
                return geotrigger(
                    .geotriggerMonitorStarted, started.id, "the monitor of geotrigger \(started.id) started")
            }
            if let stopped = try GeotriggerMonitorStopped.decode(event) {
                return geotrigger(
                    .geotriggerMonitorStopped, stopped.id, "the monitor of geotrigger \(stopped.id) stopped")
            }
            if let notified = try GeotriggerNotified.decode(event) {
                guard concerns(notified.user) else { return [] }
                return [
                    entry(
                        .geotriggerNotified,
                        "\(notified.user)'s device \(notified.deviceId) \(notified.notificationType) fence \(notified.fence) of geotrigger \(notified.geotrigger): "
                            + (notified.fired ? "" : "no notification, ") + notified.reason
                    ).about(
                        user: notified.user, deviceId: notified.deviceId, messageId: notified.messageId,
                        area: notified.fence, geotrigger: notified.geotrigger, fired: notified.fired,
                        reason: notified.reason)
                ]
            }
            if let decision = try RuleEvaluated.decode(event) {
                guard concerns(decision.user) else { return [] }
                let counts = [
                    decision.areaCount.map { "event \($0) in the area" },
                    decision.groupCount.map { "event \($0) in group \(decision.group ?? "")" },
                    decision.dailyCount.map { "notification \($0) of \(decision.day ?? "the day")" },
                ].compactMap { $0 }
                return [
                    entry(
                        .ruleEvaluated,
                        "rule \(decision.rule) of area \(decision.area) (\(decision.trigger), \(decision.user)) "
                            + (decision.awaitingServer ? "waits" : decision.fired ? "fired" : "did not fire")
                            + ": \(decision.reason)" + (counts.isEmpty ? "" : " [\(counts.joined(separator: "; "))]")
                    ).about(
                        user: decision.user, deviceId: decision.deviceId, messageId: decision.messageId,
                        area: decision.area, rule: decision.rule, fired: decision.fired, reason: decision.reason)
                ]
            }
            return nil
        }

        /// Logins, refreshes, logouts and failed logins (a rotation's revocation shows as the refresh).
        private func sessionEntries(
            for event: RecordedEvent, _ entry: (AuditEntry.What, String) -> AuditEntry
        ) throws -> [AuditEntry] {
            func from(_ deviceId: String?) -> String { deviceId.map { " from device \($0)" } ?? "" }
            if let issued = try TokenIssued.decode(event) {
                guard concerns(issued.user) else { return [] }
                let session = issued.sessionId.uuidString.lowercased()
                let e =
                    issued.reason == .login
                    ? entry(.loggedIn, "\(issued.user) logged in\(from(issued.deviceId)) (session \(session))")
                    : entry(.sessionRefreshed, "\(issued.user) refreshed session \(session)\(from(issued.deviceId))")
                return [e.about(user: issued.user, deviceId: issued.deviceId, sessionId: issued.sessionId)]
            }
            if let revoked = try TokenRevoked.decode(event) {
                guard revoked.reason != .refreshRotation, concerns(revoked.user) else { return [] }
                let session = revoked.sessionId.uuidString.lowercased()
                let detail =
                    switch revoked.reason {
                    case .logout: "\(revoked.user) logged out\(from(revoked.deviceId)) (session \(session))"
                    case .passwordChanged:
                        "session \(session) of \(revoked.user)\(from(revoked.deviceId)) ended: the password was changed"
                    case .userRemoved:
                        "session \(session) of \(revoked.user)\(from(revoked.deviceId)) ended: the user was removed"
                    case .ended:
                        "session \(session) of \(revoked.user)\(from(revoked.deviceId)) ended by \(event.actor)"
                    default:
                        "session \(session) of \(revoked.user)\(from(revoked.deviceId)) ended: a refresh token it had replaced was presented again"
                    }
                return [
                    entry(.loggedOut, detail).about(
                        user: revoked.user, deviceId: revoked.deviceId, sessionId: revoked.sessionId)
                ]
            }
            if let failed = try LoginFailed.decode(event) {
                guard concerns(failed.user) else { return [] }
                let why =
                    switch failed.reason {
                    case .unknownUser: "no such user"
                    case .wrongPassword: "wrong password"
                    case .noPassword: "the user has no password"
                    }
                let address = failed.clientAddress.map { " (address \($0))" } ?? ""
                return [
                    entry(
                        .loginFailed,
                        "login as \(String(reflecting: failed.user)) failed\(from(failed.deviceId))\(address): \(why)"
                    ).about(user: failed.user, deviceId: failed.deviceId)
                ]
            }
            return []
        }

        private mutating func payloadSent(_ sent: PayloadSent, _ base: AuditEntry) -> [AuditEntry] {
            var e = base
            e.title = sent.title
            e.recipientCount = sent.recipients.count
            e.recipients = sent.recipients.prefix(Audit.recipientsShown).map(\.user)
            let count = sent.recipients.count
            let listed =
                sent.recipients.prefix(5).map(\.user).joined(separator: ", ")
                + (count > 5 ? " and \(count - 5) more" : "")
            let what = "\(sent.sender) sent \(String(reflecting: sent.title)) on \(sent.responseTopic)"
            guard let user = filter.user else {
                e.detail = "\(what) to \(count) recipient\(count == 1 ? "" : "s"): \(listed)"
                return [e]
            }
            if let mine = sent.recipients.first(where: { $0.user == user }) {
                titles[mine.messageId] = sent.title
                e.user = user
                e.messageId = mine.messageId
                e.detail =
                    "\(what) to \(user) as message \(mine.messageId.uuidString.lowercased()), among \(count) recipient\(count == 1 ? "" : "s"): \(listed)"
                return [e]
            }
            guard sent.sender == user else { return [] }
            e.detail = "\(what) to \(count) recipient\(count == 1 ? "" : "s"): \(listed)"
            return [e]
        }
    }
}
