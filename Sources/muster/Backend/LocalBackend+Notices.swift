import Foundation
import Muster
import MusterHTTP
import MusterWire

/// The area notifications handed to devices' applications and their trace logging, on a data directory, through the calls the HTTP
/// routes make; the verb names the user, as the server takes the logged-in one.
extension LocalBackend {
    func notices(user: String?, deviceId: String) async throws -> [AreaNotification] {
        let user = try noticeUser(user)
        try requireUser(user)
        return try AreaNotices(engine: RuleEngine(log: log)).pending(
            user: user, deviceId: deviceId, namespace: namespace
        )
        .map(AreaNotification.init)
    }

    func performNotice(_ id: UUID, user: String?) async throws -> NoticeOutcome {
        let user = try noticeUser(user)
        let (performed, answer) = try await AreaNotices(engine: RuleEngine(log: log)).perform(
            id, user: user, namespace: namespace, actor: "cli")
        return NoticeOutcome(
            state: "performed", id: id, messageId: performed.messageId, serverURL: performed.serverURL,
            outcomes: performed.serverURL == nil ? nil : answer.outcomes)
    }

    func dismissNotice(_ id: UUID, user: String?) async throws -> NoticeOutcome {
        let user = try noticeUser(user)
        try await AreaNotices(engine: RuleEngine(log: log)).dismiss(id, user: user, namespace: namespace, actor: "cli")
        return NoticeOutcome(state: "dismissed", id: id)
    }

    func traceLogging(user: String?, deviceId: String) async throws -> DeviceTraceLogging {
        let user = try deviceUser(user)
        try requireUser(user)
        let trace = try AreaNotices(engine: RuleEngine(log: log)).traceLogging(
            user: user, deviceId: deviceId, namespace: namespace)
        return DeviceTraceLogging(deviceId: deviceId, trace)
    }

    func setTraceLogging(_ enabled: Bool?, user: String?, deviceId: String) async throws -> DeviceTraceLogging {
        // A device may choose before it ever reports (the HTTP route takes any id of the caller's), but its user
        // must exist: a typo would otherwise be recorded as a choice of nobody's.
        let user = try deviceUser(user)
        try requireUser(user)
        let trace = try await AreaNotices(engine: RuleEngine(log: log)).setTraceLogging(
            enabled, user: user, deviceId: deviceId, namespace: namespace, actor: "cli")
        return DeviceTraceLogging(deviceId: deviceId, trace)
    }

    /// The notice's user: a data directory has no logged-in user to default to.
    private func noticeUser(_ user: String?) throws -> String {
        guard let user else {
            throw CommandFailure.invalid("--user: name the user whose device the notices were handed to: --user USER")
        }
        return user
    }

    /// The device's user: a data directory has no logged-in user to default to.
    private func deviceUser(_ user: String?) throws -> String {
        guard let user else { throw CommandFailure.invalid("--user: name the user whose device it is: --user USER") }
        return user
    }
}
