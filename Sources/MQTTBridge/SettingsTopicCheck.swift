import MQTTConnect
import Muster
import MusterWire

/// The topics a settings message may give a device (`muster mqtt settings`): none that belongs to another MQTT
/// device. A device publishing on another's `PublishTopic` would be taken for that device (its replies answered as
/// that person's, its receipt moving that device); one subscribed to another's `SubscribeTopic` would get that
/// person's forms. The broker's topics are shared by every namespace, so every device is looked at.
struct SettingsTopicCheck {
    /// Every MQTT device registered now, of every namespace.
    let devices: [MQTTDevice]

    /// Throws `.conflict` naming the setting and the device whose topic it is; nothing is sent then.
    func check(_ settings: DeviceSettings, for device: MQTTDevice) throws(MusterError) {
        let others = devices.filter { !$0.isSameDevice(as: device) }
        if let topic = settings.publishTopic {
            if let holder = others.first(where: { $0.publishTopic == topic }) {
                throw refusal(
                    "PublishTopic=\(topic)", "is already the publish topic of \(name(holder, for: device))")
            }
            if let holder = others.first(where: { $0.subscribeTopic == topic }) {
                throw refusal(
                    "PublishTopic=\(topic)",
                    "is where Muster publishes to \(name(holder, for: device)) (its SubscribeTopic)")
            }
        }
        for filter in settings.subscribeTopic ?? [] {
            if let holder = others.first(where: { Self.filter(filter, matches: $0.subscribeTopic) }) {
                throw refusal(
                    "SubscribeTopic=\(filter)",
                    "would receive the forms Muster publishes to \(name(holder, for: device)) on "
                        + String(reflecting: holder.subscribeTopic))
            }
            if let holder = others.first(where: { Self.filter(filter, matches: $0.publishTopic) }) {
                throw refusal(
                    "SubscribeTopic=\(filter)",
                    "would receive what \(name(holder, for: device)) publishes on "
                        + String(reflecting: holder.publishTopic))
            }
        }
    }

    private func refusal(_ setting: String, _ problem: String) -> MusterError {
        MusterError(
            .conflict,
            "\(setting) \(problem); each MQTT device needs topics of its own: give one no other device uses "
                + "(muster devices list); nothing was sent",
            field: "settings")
    }

    /// Another device, named as far as the namespace of the command may know it.
    private func name(_ holder: MQTTDevice, for device: MQTTDevice) -> String {
        holder.described(toNamespace: device.namespace)
    }

    /// Whether the MQTT topic filter `filter` (`+` one level, `#` the rest) matches the topic `topic`.
    static func filter(_ filter: String, matches topic: String) -> Bool {
        let filterLevels = filter.split(separator: "/", omittingEmptySubsequences: false)
        let topicLevels = topic.split(separator: "/", omittingEmptySubsequences: false)
        for (index, level) in filterLevels.enumerated() {
            if level == "#" { return true }
            guard index < topicLevels.count else { return false }
            if level != "+", level != topicLevels[index] { return false }
        }
        return filterLevels.count == topicLevels.count
    }
}
