/// The rules of an exact MQTT topic (a device's `SubscribeTopic` or `PublishTopic`, or the topic a message came
/// on): never a filter, since Muster publishes to it or routes by it.
public enum MQTTTopic {
    /// The most UTF-8 bytes MQTT allows in a topic.
    public static let maximumBytes = 65_535

    /// Throws `.invalidArgument` naming `argument` when `topic` is empty, longer than `maximumBytes` in UTF-8,
    /// holds a NUL, or holds a wildcard (`+`, `#`).
    public static func validate(_ topic: String, as argument: String) throws(MusterError) {
        let bytes = topic.utf8
        guard !bytes.isEmpty else {
            throw MusterError(.invalidArgument, "\(argument) must not be empty: give an MQTT topic", field: argument)
        }
        guard bytes.count <= maximumBytes else {
            throw MusterError(
                .invalidArgument,
                "\(argument) is \(bytes.count) bytes long; an MQTT topic has at most \(maximumBytes) (UTF-8)",
                field: argument)
        }
        guard !bytes.contains(0) else {
            throw MusterError(.invalidArgument, "\(argument) contains NUL, which no MQTT topic may", field: argument)
        }
        if let wildcard = topic.first(where: { $0 == "+" || $0 == "#" }) {
            throw MusterError(
                .invalidArgument,
                "\(argument) \(String(reflecting: topic)) contains the wildcard \(wildcard); give the exact topic, "
                    + "not a filter",
                field: argument)
        }
    }
}
