import EventLog

/// Namespace settings: every change is an event; the current values are an inline projection.
public struct Settings: Sendable {
    let log: EventLog

    public init(log: EventLog) { self.log = log }

    /// A setting as listed: its value and whether that is the default.
    public struct Entry: Sendable, Hashable, Encodable {
        public var key: Setting
        public var value: String?
        public var isDefault: Bool

        public init(key: Setting, value: String?, isDefault: Bool) {
            self.key = key
            self.value = value
            self.isDefault = isDefault
        }
    }

    /// Sets (or with `unset`, clears) a setting; returns the stored value.
    @discardableResult
    public func set(
        _ setting: Setting, to text: String, namespace: String = Names.defaultNamespace, actor: String = "system"
    ) async throws -> String? {
        let value = try setting.normalize(text)
        _ = try await log.perform { scope in
            try scope.append(
                AppendRequest(
                    namespace: namespace, stream: Streams.settings,
                    events: [SettingChanged(setting: setting, value: value).newEvent(actor: actor)]))
        }
        return value
    }

    /// Puts a setting back to its default (a change of the default in a later release then applies to it); returns it
    /// as listed.
    @discardableResult
    public func reset(_ setting: Setting, namespace: String = Names.defaultNamespace, actor: String = "system")
        async throws -> Entry
    {
        _ = try await log.perform { scope in
            try scope.append(
                AppendRequest(
                    namespace: namespace, stream: Streams.settings,
                    events: [SettingReset(setting: setting).newEvent(actor: actor)]
                ))
        }
        return Entry(key: setting, value: setting.defaultValue, isDefault: true)
    }

    /// Every setting of the namespace, set or default.
    public func list(namespace: String = Names.defaultNamespace) throws -> [Entry] {
        try log.read { reader in
            let settings = try reader.settings
            return try Setting.allCases.map { try settings.entry($0, namespace: namespace) }
        }
    }

    /// The current value of one setting (its default when never set).
    public func value(_ setting: Setting, namespace: String = Names.defaultNamespace) throws -> String? {
        try log.read { try $0.settings.value(setting, namespace: namespace) }
    }
}

/// The current setting values, per namespace: `namespace 0 key 0` → flag byte + value.
public struct SettingsProjection: Projection {
    public static let name = "settings"
    public var name: String { Self.name }
    public var version: UInt32 { 1 }
    public var mode: ProjectionMode { .inline }
    public var tables: [String] { ["values"] }
    public var eventTypes: Set<String>? { [SettingChanged.type, SettingReset.type] }

    public init() {}

    public func apply(_ event: RecordedEvent, to state: ProjectionState) throws {
        if let reset = try SettingReset.decode(event) {
            _ = try state.delete("values", Key.joined(event.namespace, reset.setting.rawValue))
            return
        }
        guard let change = try SettingChanged.decode(event) else { return }
        let stored: [UInt8] = change.value.map { [1] + Array($0.utf8) } ?? [0]
        try state.put("values", Key.joined(event.namespace, change.setting.rawValue), stored)
    }
}

extension LogSnapshot {
    /// The settings in this snapshot.
    var settings: ProjectionView<SettingsProjection> { get throws { try view(SettingsProjection()) } }
}

extension ProjectionView<SettingsProjection> {
    /// A setting as listed: its value, or its default when never set.
    func entry(_ setting: Setting, namespace: String) throws -> Settings.Entry {
        guard let stored = try state.get("values", Key.joined(namespace, setting.rawValue)) else {
            return Settings.Entry(key: setting, value: setting.defaultValue, isDefault: true)
        }
        // First byte 1: a value follows; 0: explicitly unset.
        let value = stored.first == 1 ? String(decoding: stored.dropFirst(), as: UTF8.self) : nil
        return Settings.Entry(key: setting, value: value, isDefault: false)
    }

    /// The current value of a setting (its default when never set).
    func value(_ setting: Setting, namespace: String) throws -> String? {
        try entry(setting, namespace: namespace).value
    }
}
