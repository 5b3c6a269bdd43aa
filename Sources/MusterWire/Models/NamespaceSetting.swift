/// One setting of the namespace, e.g. `pushSizeLimit` or `dailyNotificationLimit`.
public struct NamespaceSetting: Sendable, Hashable, Codable {
    /// The setting's name.
    public var key: String
    /// Its value as text; nil when unset (e.g. no daily limit).
    public var value: String?
    /// Whether it holds its default value, never having been set.
    public var isDefault: Bool
    /// The value it has when never set (or reset), as text; nil when that is unset.
    public var defaultValue: String?

    /// Creates a setting from its parts.
    public init(key: String, value: String?, isDefault: Bool, defaultValue: String? = nil) {
        self.key = key
        self.value = value
        self.isDefault = isDefault
        self.defaultValue = defaultValue
    }
}
