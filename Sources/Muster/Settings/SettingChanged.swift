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

/// A namespace setting went back to its default: it is listed as default again, and follows the default of later
/// releases.
public struct SettingReset: DomainEvent, Hashable {
    public static let type = "SettingReset"
    public static let schemaVersion: UInt16 = 1

    public var setting: Setting

    public init(setting: Setting) { self.setting = setting }

    public func encode(into w: inout ByteWriter) { w.write(setting.rawValue) }

    public init(from r: inout ByteReader) throws {
        let name = try r.readString("setting")
        guard let setting = Setting(rawValue: name) else { throw StoreError(.corrupt, "unknown setting \(name)") }
        self.setting = setting
    }
}
