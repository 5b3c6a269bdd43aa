import Foundation
import Geo

/// One rule/action of an area (seed 004, "rule/actions"): when its trigger happens, after the
/// latch time, subject to counts, validity, opening hours and the daily quota, it calls the server
/// hook and/or notifies the user.
public struct AreaRule: Sendable, Hashable, Codable {
    /// Opaque rule identifier (the seed's examples use numbers and numeric strings).
    public var id: String
    /// `on_entry` or `on_exit`; other triggers are stored and served but never fire.
    public var trigger: String
    /// Limits; nil means none (the seed's empty or negative values).
    public var minEvents: Int?
    public var maxEvents: Int?
    public var minGroupEvents: Int?
    public var maxGroupEvents: Int?
    /// Seconds without another event for the area before this one counts; 0 for none.
    public var latchTime: Int
    /// Beacon regions: the farthest proximity that fires; nil for any.
    public var maximumProximity: BeaconProximity?
    public var action: Action

    public init(
        id: String, trigger: String, minEvents: Int? = nil, maxEvents: Int? = nil, minGroupEvents: Int? = nil,
        maxGroupEvents: Int? = nil, latchTime: Int = 0, maximumProximity: BeaconProximity? = nil,
        action: Action = Action()
    ) {
        self.id = id
        self.trigger = trigger
        self.minEvents = minEvents
        self.maxEvents = maxEvents
        self.minGroupEvents = minGroupEvents
        self.maxGroupEvents = maxGroupEvents
        self.latchTime = latchTime
        self.maximumProximity = maximumProximity
        self.action = action
    }

    /// The trigger as a fence trigger; nil for triggers the engine does not process.
    public var fenceTrigger: FenceTrigger? { FenceTrigger(rawValue: trigger) }

    /// What a rule does when it fires; every string may be empty.
    public struct Action: Sendable, Hashable, Codable {
        /// URL template of the server hook.
        public var notifyServer: String
        /// The notification: a JSON text `{"alertBody","payload"}`, or (as the seed's examples) plain text.
        public var notifyUser: String
        public var openURL: String
        public var openPBK: String

        public init(notifyServer: String = "", notifyUser: String = "", openURL: String = "", openPBK: String = "") {
            self.notifyServer = notifyServer
            self.notifyUser = notifyUser
            self.openURL = openURL
            self.openPBK = openPBK
        }

        /// The notification `notifyUser` describes; nil when there is nothing to show.
        public var notification: UserNotice? { UserNotice(notifyUser) }
    }
}

/// A notification a rule (or a server decision) asks to show: text and application data.
public struct UserNotice: Sendable, Hashable {
    public var alertBody: String
    /// The `payload` dictionary as compact JSON; nil when none was given.
    public var payload: Data?

    /// Reads `notify_user`: a JSON object (or a JSON text of one) with `alertBody` and `payload`, or
    /// plain text used as the alert body. Nil when the text or its `alertBody` is empty.
    public init?(_ text: String) {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty else { return nil }
        guard trimmed.hasPrefix("{"),
            let object = try? JSONSerialization.jsonObject(with: Data(trimmed.utf8)) as? [String: Any]
        else {
            self.init(alertBody: trimmed, payload: nil)
            return
        }
        self.init(object: object)
    }

    public init(alertBody: String, payload: Data?) {
        self.alertBody = alertBody
        self.payload = payload
    }

    /// Reads the `notify_user` object form.
    init?(object: [String: Any]) {
        guard let body = object["alertBody"] as? String, !body.isEmpty else { return nil }
        let payload = (object["payload"] as? [String: Any]).flatMap {
            try? JSONSerialization.data(withJSONObject: $0, options: [.sortedKeys])
        }
        self.init(alertBody: body, payload: payload)
    }
}
