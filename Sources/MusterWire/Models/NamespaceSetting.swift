/// One setting of the namespace, e.g. `pushSizeLimit` or `dailyNotificationLimit`.
public struct NamespaceSetting: Sendable, Hashable, Codable {
    /// The setting's name.
    public var key: String
    /// Its value as text; nil when unset (e.g. no daily limit).
    public var value: String?
    /// Whether it holds its default value, never having been set.
    public var isDefault: Bool

    /// Creates a setting from its parts.
    public init(key: String, value: String?, isDefault: Bool) {
        self.key = key
        self.value = value
        self.isDefault = isDefault
    }
}
