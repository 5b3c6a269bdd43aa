/// The body of `POST /notifications`: a form sent to users, groups or everyone.
public struct NotificationBody: Sendable, Hashable, Codable {
    /// Users to send to.
    public var to: [String]?
    /// Groups whose members to send to.
    public var groups: [String]?
    /// True to send to every user of the namespace.
    public var all: Bool?
    /// The notification's title.
    public var title: String
    /// The notification's body (subtitle).
    public var body: String
    /// The source to name in the message, when any.
    public var source: String?
    /// The form payload of seed 000.
    public var payload: JSONValue
    /// What to set on the DialogMessage of recipients' MQTT devices, with seed 001's names: `{"SwitchToTab": "QR",
    /// "SwitchDelay": 1000, "AlertCode": 23, "FlashDuration": 0}`, each optional.
    public var mqtt: [String: JSONValue]?

    /// Creates a notification to `recipients`, leaving out the members that select nobody.
    public init(
        title: String, body: String, payload: JSONValue, to recipients: Recipients, source: String? = nil,
        mqtt: [String: JSONValue]? = nil
    ) {
        to = recipients.users.isEmpty ? nil : recipients.users
        groups = recipients.groups.isEmpty ? nil : recipients.groups
        all = recipients.all ? true : nil
        self.title = title
        self.body = body
        self.source = source
        self.payload = payload
        self.mqtt = mqtt
    }
}
