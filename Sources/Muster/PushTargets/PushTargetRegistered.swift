import EventLog

/// Where a user's device takes pushes: registering the same device again updates it.
public struct PushTargetRegistered: DomainEvent, Hashable {
    public static let type = "PushTargetRegistered"
    public static let schemaVersion: UInt16 = 1

    /// How pushes reach the device.
    public enum Platform: String, Sendable, Hashable, Codable, CaseIterable {
        case web, apns, fcm, mqtt
    }

    public var user: String
    public var deviceId: String
    public var deviceName: String
    public var platform: Platform
    /// The platform's push token (APNs device token in hex, FCM token, Web Push subscription …).
    public var token: String?

    public init(user: String, deviceId: String, deviceName: String, platform: Platform, token: String?) {
        self.user = user
        self.deviceId = deviceId
        self.deviceName = deviceName
        self.platform = platform
        self.token = token
    }

    public func encode(into w: inout ByteWriter) {
        w.write(user)
        w.write(deviceId)
        w.write(deviceName)
        w.write(platform.rawValue)
        w.write(token ?? "")
    }

    public init(from r: inout ByteReader) throws {
        user = try r.readString("user")
        deviceId = try r.readString("device id")
        deviceName = try r.readString("device name")
        let platform = try r.readString("platform")
        guard let known = Platform(rawValue: platform) else {
            throw StoreError(.corrupt, "unknown push platform \(platform)")
        }
        self.platform = known
        let token = try r.readString("token")
        self.token = token.isEmpty ? nil : token
    }
}

/// A device no longer takes pushes.
public struct PushTargetUnregistered: DomainEvent, Hashable {
    public static let type = "PushTargetUnregistered"
    public static let schemaVersion: UInt16 = 1

    public var user: String
    public var deviceId: String

    public init(user: String, deviceId: String) {
        self.user = user
        self.deviceId = deviceId
    }

    public func encode(into w: inout ByteWriter) {
        w.write(user)
        w.write(deviceId)
    }

    public init(from r: inout ByteReader) throws {
        user = try r.readString("user")
        deviceId = try r.readString("device id")
    }
}
