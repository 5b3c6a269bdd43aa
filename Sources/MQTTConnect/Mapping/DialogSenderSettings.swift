import MusterWire

/// What the sender of a message may set on its DialogMessage beyond the payload: the tab to switch to, after
/// how long, the alert sound and the torch flash.
public struct DialogSenderSettings: Sendable, Hashable {
    /// The tab the app switches to; nil to stay on the message.
    public var switchToTab: SwitchToTab?
    /// How long before switching, ≥ 0.
    public var switchDelay: Int?
    /// The alert sound's code.
    public var alertCode: Int?
    /// How long the torch flashes, ≥ 0.
    public var flashDuration: Int?

    /// No tab switch, no alert, no flash.
    public static let none = DialogSenderSettings(validated: nil, nil, nil, nil)

    private init(validated switchToTab: SwitchToTab?, _ switchDelay: Int?, _ alertCode: Int?, _ flashDuration: Int?) {
        self.switchToTab = switchToTab
        self.switchDelay = switchDelay
        self.alertCode = alertCode
        self.flashDuration = flashDuration
    }

    /// Creates settings from what a sender wrote.
    /// - Parameters:
    ///   - switchToTab: "QR", "NFC" or "Camera".
    ///   - switchDelay: 0 or more.
    ///   - flashDuration: 0 or more.
    /// - Throws: the first setting that is out of its range, named as the seed names it.
    public init(switchToTab: String? = nil, switchDelay: Int? = nil, alertCode: Int? = nil, flashDuration: Int? = nil)
        throws(DialogSettingsError)
    {
        var tab: SwitchToTab?
        if let switchToTab {
            guard let known = SwitchToTab(rawValue: switchToTab) else {
                throw DialogSettingsError(
                    setting: "SwitchToTab", message: "must be \"QR\", \"NFC\" or \"Camera\", not \"\(switchToTab)\"")
            }
            tab = known
        }
        if let switchDelay, switchDelay < 0 {
            throw DialogSettingsError(setting: "SwitchDelay", message: "must be 0 or more, not \(switchDelay)")
        }
        if let flashDuration, flashDuration < 0 {
            throw DialogSettingsError(setting: "FlashDuration", message: "must be 0 or more, not \(flashDuration)")
        }
        self.init(validated: tab, switchDelay, alertCode, flashDuration)
    }

    /// Reads the settings from a JSON object with the seed's names (`{"SwitchToTab": "QR", "SwitchDelay": 1000,
    /// "AlertCode": 23, "FlashDuration": 0}`), as an HTTP body or a CLI option carries them.
    /// - Throws: the first member that is unknown, of the wrong type or out of its range.
    public init(json: [String: JSONValue]) throws(DialogSettingsError) {
        let known = ["SwitchToTab", "SwitchDelay", "AlertCode", "FlashDuration"]
        for key in json.keys.sorted() where !known.contains(key) {
            throw DialogSettingsError(
                setting: key, message: "is not a setting; known: \(known.joined(separator: ", "))")
        }
        func integer(_ key: String) throws(DialogSettingsError) -> Int? {
            guard let value = json[key], !value.isNull else { return nil }
            guard let number = value.intValue else {
                throw DialogSettingsError(setting: key, message: "must be an integer, not \(value)")
            }
            return number
        }
        var tab: String?
        if let value = json["SwitchToTab"], !value.isNull {
            guard let text = value.stringValue else {
                throw DialogSettingsError(
                    setting: "SwitchToTab", message: "must be \"QR\", \"NFC\" or \"Camera\", not \(value)")
            }
            tab = text
        }
        try self.init(
            switchToTab: tab, switchDelay: try integer("SwitchDelay"), alertCode: try integer("AlertCode"),
            flashDuration: try integer("FlashDuration"))
    }
}

/// Why a sender's DialogMessage setting was refused: the setting, as the seed names it, and what was expected.
public struct DialogSettingsError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The setting: `SwitchToTab`, `SwitchDelay`, `AlertCode` or `FlashDuration`.
    public let setting: String
    /// What is wrong and what was expected.
    public let message: String

    /// `SwitchDelay: must be 0 or more, not -5`.
    public var description: String { "\(setting): \(message)" }
}
