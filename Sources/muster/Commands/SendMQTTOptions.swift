import ArgumentParser
import MQTTConnect
import MusterWire

/// `muster send --mqtt-…`: what the DialogMessage of recipients' MQTT devices does beyond the payload (seed 001's
/// `SwitchToTab`, `SwitchDelay`, `AlertCode`, `FlashDuration`, and the fields sent with `InstantSender`).
struct SendMQTTOptions: ParsableArguments {
    @Option(help: ArgumentHelp("The tab the MQTT Connect app switches to.", valueName: "QR|NFC|Camera"))
    var mqttSwitchToTab: String?
    // Unconditional: a negative number is the value (`--mqtt-alert-code -1`, or `--mqtt-switch-delay -5` refused with
    // why), not taken for an option, which would be refused as a missing value.
    @Option(parsing: .unconditional, help: ArgumentHelp("Milliseconds before the app switches tab.", valueName: "MS"))
    var mqttSwitchDelay: Int?
    @Option(parsing: .unconditional, help: ArgumentHelp("The alert sound the app plays.", valueName: "N"))
    var mqttAlertCode: Int?
    @Option(parsing: .unconditional, help: ArgumentHelp("Milliseconds the torch flashes.", valueName: "MS"))
    var mqttFlashDuration: Int?
    @Option(
        help: ArgumentHelp(
            "An input field (by id) whose value the app sends alone as soon as it is entered; that value answers the "
                + "message. Repeat for more.", valueName: "FIELD"))
    var mqttInstantSender: [String] = []

    /// The command line's name of each setting.
    static let optionNames = [
        "SwitchToTab": "--mqtt-switch-to-tab", "SwitchDelay": "--mqtt-switch-delay", "AlertCode": "--mqtt-alert-code",
        "FlashDuration": "--mqtt-flash-duration", "InstantSender": "--mqtt-instant-sender",
    ]

    /// The settings, checked; a usage error names the option and what it takes.
    func settings() throws -> DialogSenderSettings {
        do {
            return try DialogSenderSettings(
                switchToTab: mqttSwitchToTab, switchDelay: mqttSwitchDelay, alertCode: mqttAlertCode,
                flashDuration: mqttFlashDuration, instantSender: mqttInstantSender)
        } catch {
            throw ValidationError("\(Self.optionNames[error.setting] ?? error.setting) \(error.message)")
        }
    }

    func validate() throws { _ = try settings() }
}

extension DialogSenderSettings {
    /// The settings as `POST /notifications` takes them in `mqtt`, with seed 001's names; unset ones left out.
    var json: [String: JSONValue] {
        var object: [String: JSONValue] = [:]
        if let switchToTab { object["SwitchToTab"] = .string(switchToTab.rawValue) }
        if let switchDelay { object["SwitchDelay"] = .number(Double(switchDelay)) }
        if let alertCode { object["AlertCode"] = .number(Double(alertCode)) }
        if let flashDuration { object["FlashDuration"] = .number(Double(flashDuration)) }
        if !instantSender.isEmpty { object["InstantSender"] = .array(instantSender.map(JSONValue.string)) }
        return object
    }
}
