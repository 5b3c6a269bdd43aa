import EventLog

/// A namespace setting took a new value (nil: back to unset).
public struct SettingChanged: DomainEvent, Hashable {
    public static let type = "SettingChanged"
    public static let schemaVersion: UInt16 = 1

    public var setting: Setting
    public var value: String?

    public init(setting: Setting, value: String?) {
        self.setting = setting
        self.value = value
    }

    public func encode(into w: inout ByteWriter) {
        w.write(setting.rawValue)
        w.write(value != nil)
        if let value { w.write(value) }
    }

    public init(from r: inout ByteReader) throws {
        let name = try r.readString("setting")
        guard let setting = Setting(rawValue: name) else { throw StoreError(.corrupt, "unknown setting \(name)") }
        self.setting = setting
        value = try r.readBool("value flag") ? try r.readString("value") : nil
    }
}
