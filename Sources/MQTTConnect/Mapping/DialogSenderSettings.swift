import MusterWire

/// What the sender of a message may set on its DialogMessage beyond the payload: the tab to switch to, after
/// how long, the alert sound, the torch flash, and the input fields that send their value the moment it changes.
public struct DialogSenderSettings: Sendable, Hashable {
    /// The tab the app switches to; nil to stay on the message.
    public var switchToTab: SwitchToTab?
    /// How long before switching, ≥ 0.
    public var switchDelay: Int?
    /// The alert sound's code.
    public var alertCode: Int?
    /// How long the torch flashes, ≥ 0.
    public var flashDuration: Int?
    /// The ids of the payload's input fields sent with `InstantSender: true`: the app publishes such a field's value
    /// alone as soon as it is entered, and that value answers the message (`DialogReply.isInstant`).
    public var instantSender: [String]

    /// No tab switch, no alert, no flash, no instant field.
    public static let none = DialogSenderSettings(validated: nil, nil, nil, nil, [])

    private init(
        validated switchToTab: SwitchToTab?, _ switchDelay: Int?, _ alertCode: Int?, _ flashDuration: Int?,
        _ instantSender: [String]
    ) {
        self.switchToTab = switchToTab
        self.switchDelay = switchDelay
        self.alertCode = alertCode
        self.flashDuration = flashDuration
        self.instantSender = instantSender
    }

    /// Creates settings from what a sender wrote.
    /// - Parameters:
    ///   - switchToTab: "QR", "NFC" or "Camera".
    ///   - switchDelay: 0 or more.
    ///   - flashDuration: 0 or more.
    ///   - instantSender: ids of input fields, each once (whether the payload has them is checked when it is sent).
    /// - Throws: the first setting that is out of its range, named as the seed names it.
    public init(
        switchToTab: String? = nil, switchDelay: Int? = nil, alertCode: Int? = nil, flashDuration: Int? = nil,
        instantSender: [String] = []
    ) throws(DialogSettingsError) {
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
        for (index, id) in instantSender.enumerated() {
            guard !id.isEmpty else {
                throw DialogSettingsError(setting: "InstantSender", message: "must name input fields by id, not \"\"")
            }
            guard !instantSender[..<index].contains(id) else {
                throw DialogSettingsError(setting: "InstantSender", message: "names \"\(id)\" twice")
            }
        }
        self.init(validated: tab, switchDelay, alertCode, flashDuration, instantSender)
    }

    /// Reads the settings from a JSON object with the seed's names (`{"SwitchToTab": "QR", "SwitchDelay": 1000,
    /// "AlertCode": 23, "FlashDuration": 0, "InstantSender": ["age"]}`), as an HTTP body or a CLI option carries them.
    /// - Throws: the first member that is unknown, of the wrong type or out of its range.
    public init(json: [String: JSONValue]) throws(DialogSettingsError) {
        let known = ["SwitchToTab", "SwitchDelay", "AlertCode", "FlashDuration", "InstantSender"]
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
        var instant: [String] = []
        if let value = json["InstantSender"], !value.isNull {
            let ids = value.arrayValue?.compactMap(\.stringValue)
            guard let ids, ids.count == value.arrayValue?.count else {
                throw DialogSettingsError(
                    setting: "InstantSender", message: "must be an array of input field ids, not \(value)")
            }
            instant = ids
        }
        try self.init(
            switchToTab: tab, switchDelay: try integer("SwitchDelay"), alertCode: try integer("AlertCode"),
            flashDuration: try integer("FlashDuration"), instantSender: instant)
    }
}

/// Why a sender's DialogMessage setting was refused: the setting, as the seed names it, and what was expected.
public struct DialogSettingsError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The setting: `SwitchToTab`, `SwitchDelay`, `AlertCode`, `FlashDuration` or `InstantSender`.
    public let setting: String
    /// What is wrong and what was expected.
    public let message: String

    /// `SwitchDelay: must be 0 or more, not -5`.
    public var description: String { "\(setting): \(message)" }
}
