import MusterWire

extension NamespaceSetting {
    /// A setting of the namespace as the API and the CLI show it.
    public init(_ entry: Settings.Entry) {
        self.init(
            key: entry.key.rawValue, value: entry.value, isDefault: entry.isDefault,
            defaultValue: entry.key.defaultValue)
    }
}
