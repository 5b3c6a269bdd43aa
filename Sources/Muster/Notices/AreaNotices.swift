import EventLog
import Foundation
import MusterWire

/// The application side of the rules (seed 004): the notices handed to a device's app when the namespace
/// leaves user or server notifications to it, and what the app does with them — have the server perform
/// the default action, or dismiss it.
public struct AreaNotices: Sendable {
    let engine: RuleEngine
    var log: EventLog { engine.log }

    /// - Parameter engine: the rules engine whose server hook a performed server notification calls.
    public init(engine: RuleEngine) { self.engine = engine }

    /// The notices waiting for the app on `user`'s device `deviceId`, oldest first.
    public func pending(user: String, deviceId: String, namespace: String = Names.defaultNamespace) throws
        -> [AreaNotificationHanded]
    {
        try log.read { reader in
            try reader.view(NoticesProjection()).pending(user: user, deviceId: deviceId, namespace: namespace)
                .compactMap { position in try reader.event(at: position).flatMap(AreaNotificationHanded.decode) }
        }
    }

    /// Does what the rule would have done automatically: sends the notification to the user as an inbox
    /// message, or calls the server notification URL and goes on with the rule (its answer is in the
    /// returned `LocationAnswer`). A notice is performed or dismissed once; `.notFound` when `user` has no
    /// such notice, `.conflict` when it was already performed or dismissed.
    public func perform(
        _ noticeId: UUID, user: String, namespace: String = Names.defaultNamespace, actor: String? = nil
    ) async throws -> (performed: AreaNotificationPerformed, answer: LocationAnswer) {
        let (performed, hooks) = try await log.perform { scope -> (AreaNotificationPerformed, [PendingHook]) in
            let handed = try Self.waiting(noticeId, user: user, namespace: namespace, scope)
            var performed = AreaNotificationPerformed(noticeId: noticeId, user: user, deviceId: handed.deviceId)
            var hooks: [PendingHook] = []
            switch handed.action {
            case .notifyUser:
                performed.messageId = try RuleRun.send(
                    title: handed.title, body: handed.body, payload: Array(handed.message.utf8),
                    responseTopic: handed.responseTopic, to: user, namespace: namespace, scope)
                try Self.append(performed, namespace: namespace, actor: actor ?? user, scope)
            case .notifyServer:
                let url = handed.serverURL ?? ""
                performed.serverURL = url
                try Self.append(performed, namespace: namespace, actor: actor ?? user, scope)
                // From here the rule goes on as if the server had called the hook itself.
                let run = try RuleRun(scope: scope, namespace: namespace, cache: engine.cache)
                var decision = handed.decision
                decision.serverURL = url
                decision.awaitingServer = true
                decision.reason =
                    "area notification \(noticeId.uuidString.lowercased()) performed: waiting for the server hook \(url)"
                let position = try run.record(decision)
                hooks.append(PendingHook(record: decision, namespace: namespace, url: url, position: position))
            }
            return (performed, hooks)
        }
        return (performed, try await engine.callServerHooks(hooks))
    }

    /// Records that the app dealt with the notice itself: nothing is sent. Refused like `perform`.
    @discardableResult
    public func dismiss(
        _ noticeId: UUID, user: String, namespace: String = Names.defaultNamespace, actor: String? = nil
    ) async throws -> AreaNotificationDismissed {
        try await log.perform { scope in
            let handed = try Self.waiting(noticeId, user: user, namespace: namespace, scope)
            let dismissed = AreaNotificationDismissed(noticeId: noticeId, user: user, deviceId: handed.deviceId)
            try Self.append(dismissed, namespace: namespace, actor: actor ?? user, scope)
            return dismissed
        }
    }

    /// The handed notice, when it is `user`'s and still waits.
    private static func waiting(_ noticeId: UUID, user: String, namespace: String, _ scope: WriteScope) throws
        -> AreaNotificationHanded
    {
        let id = noticeId.uuidString.lowercased()
        guard let (state, position) = try scope.view(NoticesProjection()).notice(noticeId, namespace: namespace),
            let handed = try scope.event(at: position).flatMap(AreaNotificationHanded.decode), handed.user == user
        else {
            throw MusterError(.notFound, "notice: \(user) has no area notification \(id)", field: "id")
        }
        guard state == .pending else {
            throw MusterError(
                .conflict,
                "notice: area notification \(id) was already \(state == .performed ? "performed" : "dismissed"); "
                    + "a notice is performed or dismissed once",
                field: "id")
        }
        return handed
    }

    static func append(
        _ event: some DomainEvent & DeviceRecord, namespace: String, actor: String, _ scope: WriteScope
    )
        throws
    {
        try scope.append(
            AppendRequest(
                namespace: namespace, stream: Streams.device(event.deviceId), events: [event.newEvent(actor: actor)])
        )
    }
}
