/// What the MQTT Connect app shows on its "messages" tab: the `DialogMessage` object of seed 001.
///
/// Every member is optional; absent ones are left out of the JSON, not written as null.
public struct DialogMessage: Sendable, Hashable, Codable {
    /// The heading.
    public var maintitle: String?
    /// The line under the heading.
    public var subtitle: String?
    /// A picture: a `data:image/…;base64,…` URL or a web URL.
    public var image: String?
    /// Text under the picture.
    public var comment: String?
    /// The values the user may enter.
    public var inputFields: [DialogInputField]?
    /// The choices the user may pick; picking one publishes its `ReplyObject`.
    public var options: [DialogOption]?
    /// How many options may be picked.
    public var optionsMode: OptionsMode?
    /// The tab the app switches to after `switchDelay`.
    public var switchToTab: SwitchToTab?
    /// How long the app waits before switching tabs (the seed's example: 1000).
    public var switchDelay: Int?
    /// The alert sound the app plays (the seed's example: 23).
    public var alertCode: Int?
    /// How long the app flashes the torch (the seed's example: 0).
    public var flashDuration: Int?

    /// Creates a dialog message; every member defaults to absent.
    public init(
        maintitle: String? = nil, subtitle: String? = nil, image: String? = nil, comment: String? = nil,
        inputFields: [DialogInputField]? = nil, options: [DialogOption]? = nil, optionsMode: OptionsMode? = nil,
        switchToTab: SwitchToTab? = nil, switchDelay: Int? = nil, alertCode: Int? = nil, flashDuration: Int? = nil
    ) {
        self.maintitle = maintitle
        self.subtitle = subtitle
        self.image = image
        self.comment = comment
        self.inputFields = inputFields
        self.options = options
        self.optionsMode = optionsMode
        self.switchToTab = switchToTab
        self.switchDelay = switchDelay
        self.alertCode = alertCode
        self.flashDuration = flashDuration
    }

    private enum CodingKeys: String, CodingKey {
        case maintitle = "Maintitle"
        case subtitle = "Subtitle"
        case image = "Image"
        case comment = "Comment"
        case inputFields = "InputFields"
        case options = "Options"
        case optionsMode = "OptionsMode"
        case switchToTab = "SwitchToTab"
        case switchDelay = "SwitchDelay"
        case alertCode = "AlertCode"
        case flashDuration = "FlashDuration"
    }
}

/// How many of a dialog's options may be picked: the seed's `OptionsMode`.
public enum OptionsMode: String, Sendable, Hashable, CaseIterable, Codable {
    /// The seed's three modes.
    case none = "None"
    /// One option.
    case single = "Single"
    /// Several options.
    case multiple = "Multiple"
}

/// The tabs a dialog may switch the app to: the seed's `SwitchToTab`.
public enum SwitchToTab: String, Sendable, Hashable, CaseIterable, Codable {
    /// The QR-code scanner.
    case qr = "QR"
    /// The NFC reader.
    case nfc = "NFC"
    /// The camera.
    case camera = "Camera"
}
