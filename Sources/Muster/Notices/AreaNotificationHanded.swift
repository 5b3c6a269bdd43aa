import EventLog
import Foundation

/// A rule's action handed to the device's application instead of done by the server (seed 004's
/// "area notification" and "server notification" delegate messages): automatic user notifications are off,
/// so the notification waits for the app to have it performed or dismissed; or automatic server
/// notifications are off, so the app gets the server notification URL to call itself (or to have the
/// server call it, which continues the rule).
public struct AreaNotificationHanded: DomainEvent, Hashable, Codable {
    public static let type = "AreaNotificationHanded"
    public static let schemaVersion: UInt16 = 1

    /// Which step of the rule's action was handed.
    public enum Action: String, Sendable, Hashable, Codable, CaseIterable {
        /// The user notification (`notify_user`): performing it sends it to the user.
        case notifyUser
        /// The server notification (`notify_server`): performing it calls the URL and continues the rule.
        case notifyServer
    }

    /// The notice's id, for `perform` and `dismiss`.
    public var noticeId: UUID
    public var action: Action
    public var user: String
    public var deviceId: String
    /// The area's kind (`geofence` or `beacon`) and id.
    public var areaKind: String
    public var area: String
    public var rule: String
    /// `on_entry` or `on_exit`.
    public var trigger: String
    /// Log position of the `AreaTransition` the rule decided on.
    public var transition: UInt64
    /// The decision's time, µs since 1970.
    public var at: Int64
    /// The notification's title (the area's name) and text (`notify_user.alertBody`); empty for `notifyServer`.
    public var title: String
    public var body: String
    /// The page or wallet pass the notification opens, expanded from its template.
    public var openURL: String?
    public var openPBK: String?
    /// The rule's application data (`notify_user.payload`), JSON text.
    public var data: String?
    /// The inbox message's payload (JSON text) and response topic, sent as they are when the notice is performed;
    /// empty for `notifyServer`.
    public var message: String
    public var responseTopic: String
    /// The server notification URL, expanded from `notify_server`; set for `notifyServer` only.
    public var serverURL: String?

    /// The record of the rule's decision this notice continues.
    var decision: RuleEvaluated {
        RuleEvaluated(
            user: user, deviceId: deviceId, area: area, rule: rule, trigger: trigger, transition: transition, at: at,
            kind: areaKind)
    }
}

extension AreaNotificationHanded {
    /// The platforms whose apps are told of the notice by a push: not an MQTT device's (it has no notices), and a
    /// server notification's push is silent, which a browser may not be sent (it must show every push).
    var pushPlatforms: Set<PushTargetRegistered.Platform> {
        action == .notifyServer ? [.apns, .fcm] : [.apns, .fcm, .web]
    }
}
