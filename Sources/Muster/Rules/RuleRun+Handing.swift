import EventLog
import Foundation

extension RuleRun {
    /// The rule's user notification, handed to the device's application (automaticUserNotifications is false):
    /// counted for the day like a sent one, recorded as an `AreaNotificationHanded` the app performs or
    /// dismisses.
    func handUserNotification(_ decision: RuleEvaluated, _ message: RuleNotice) throws {
        var decision = decision
        let noticeId = EventID.make()
        var openURL: String?
        var openPBK: String?
        switch message.link {
        case .web(let url): openURL = url
        case .wallet(let url): openPBK = url
        case nil: break
        }
        let handed = AreaNotificationHanded(
            noticeId: noticeId, action: .notifyUser, user: decision.user, deviceId: decision.deviceId,
            areaKind: decision.kind, area: decision.area, rule: decision.rule, trigger: decision.trigger,
            transition: decision.transition, at: decision.at, title: message.title, body: message.notice.alertBody,
            openURL: openURL, openPBK: openPBK,
            data: message.notice.payload.map { String(decoding: $0, as: UTF8.self) },
            message: String(decoding: message.payload(), as: UTF8.self),
            responseTopic: message.responseTopic, serverURL: nil)
        decision.reason =
            "fired; handed to the application as area notification \(noticeId.uuidString.lowercased()) "
            + "(automaticUserNotifications is false)"
        try record(decision)
        try append(stream: decision.deviceId, handed)
    }

    /// The rule's server notification URL, handed to the device's application (automaticServerNotifications is
    /// false): the app calls it itself, or has the server perform it, which continues the rule.
    func handServerNotification(_ decision: RuleEvaluated, url: String) throws {
        var decision = decision
        let noticeId = EventID.make()
        let handed = AreaNotificationHanded(
            noticeId: noticeId, action: .notifyServer, user: decision.user, deviceId: decision.deviceId,
            areaKind: decision.kind, area: decision.area, rule: decision.rule, trigger: decision.trigger,
            transition: decision.transition, at: decision.at, title: "", body: "", openURL: nil, openPBK: nil,
            data: nil, message: "", responseTopic: "", serverURL: url)
        decision.decision = "delegated"
        decision.reason =
            "notify_server handed to the application as area notification \(noticeId.uuidString.lowercased()) "
            + "(automaticServerNotifications is false): it calls \(url) or has the server perform it"
        try record(decision)
        try append(stream: decision.deviceId, handed)
    }

    /// Sends a rule's notification to `user` as an inbox message (and so to their devices' push targets);
    /// returns the message id.
    static func send(
        title: String, body: String, payload: [UInt8], responseTopic: String, to user: String, namespace: String,
        _ scope: WriteScope
    ) throws -> UUID {
        let messageId = EventID.make()
        let sent = PayloadSent(
            sender: "rules", title: title, body: body, source: "rules", payload: payload, responseTopic: responseTopic,
            recipients: [PayloadSent.Recipient(user: user, messageId: messageId)])
        try scope.append(
            AppendRequest(
                namespace: namespace, stream: Streams.send(messageId), expectedVersion: .noStream,
                events: [sent.newEvent(actor: "rules")]))
        return messageId
    }
}
