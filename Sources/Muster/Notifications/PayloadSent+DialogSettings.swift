import EventLog
import Foundation
import MQTTConnect

extension PayloadSent.DialogSettings {
    /// The settings as stored; nil when the sender set none.
    init?(_ settings: DialogSenderSettings) {
        guard settings != .none else { return nil }
        self.init(
            switchToTab: settings.switchToTab?.rawValue, switchDelay: settings.switchDelay,
            alertCode: settings.alertCode, flashDuration: settings.flashDuration, instantSender: settings.instantSender)
    }

    /// The settings for `DialogMapping`; a tab this release does not know is left out.
    public var senderSettings: DialogSenderSettings {
        var settings = DialogSenderSettings.none
        settings.switchToTab = switchToTab.flatMap(SwitchToTab.init(rawValue:))
        settings.switchDelay = switchDelay
        settings.alertCode = alertCode
        settings.flashDuration = flashDuration
        settings.instantSender = instantSender
        return settings
    }
}

extension Notifications {
    /// What the sender of message `id` to `user` set on its DialogMessage; `.none` when nothing, or when there is no
    /// such message.
    public func dialogSettings(messageId id: UUID, user: String, namespace: String) throws -> DialogSenderSettings {
        try log.read { reader in
            guard let position = try reader.inbox.addressed(id, user: user, namespace: namespace)?.position,
                let sent = try DecodedSends.shared.send(at: position, in: reader)?.sent
            else { return .none }
            return sent.mqtt?.senderSettings ?? .none
        }
    }
}
