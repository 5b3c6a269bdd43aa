import EventLog
import Foundation

/// A geotrigger was created or replaced.
public struct GeotriggerDefined: DomainEvent, Hashable {
    public static let type = "GeotriggerDefined"
    public static let schemaVersion: UInt16 = 1

    public var geotrigger: Geotrigger

    public init(geotrigger: Geotrigger) { self.geotrigger = geotrigger }

    public func encode(into w: inout ByteWriter) {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        w.write(bytes: (try? encoder.encode(geotrigger)) ?? Data())
    }

    public init(from r: inout ByteReader) throws {
        let bytes = try r.readBytes("geotrigger")
        do {
            geotrigger = try JSONDecoder().decode(Geotrigger.self, from: Data(bytes))
        } catch {
            throw StoreError(.corrupt, "a GeotriggerDefined body does not decode: \(error)")
        }
    }
}

/// A geotrigger was removed.
public struct GeotriggerRemoved: DomainEvent, Hashable {
    public static let type = "GeotriggerRemoved"
    public static let schemaVersion: UInt16 = 1

    public var id: String

    public init(id: String) { self.id = id }

    public func encode(into w: inout ByteWriter) { w.write(id) }

    public init(from r: inout ByteReader) throws { id = try r.readString("geotrigger id") }
}

/// A device entered or exited one fence of a geotrigger; when the rule matched, the notification
/// info the message expression produced and the inbox message it went out as.
public struct GeotriggerNotified: DomainEvent, Hashable {
    public static let type = "GeotriggerNotified"
    public static let schemaVersion: UInt16 = 1

    public var user: String
    public var deviceId: String
    public var geotrigger: String
    public var fence: String
    /// `entered` or `exited`.
    public var notificationType: String
    public var at: Int64
    public var latitude: Double
    public var longitude: Double
    /// Whether the rule matched and a notification went out.
    public var fired: Bool
    /// Why not, or what was sent.
    public var reason: String
    public var message: String
    public var actions: [String]
    /// The expression's other properties, as JSON text.
    public var properties: String
    public var messageId: UUID?

    public init(
        user: String, deviceId: String, geotrigger: String, fence: String, notificationType: String, at: Int64,
        latitude: Double, longitude: Double, fired: Bool, reason: String, message: String = "", actions: [String] = [],
        properties: String = "{}", messageId: UUID? = nil
    ) {
        self.user = user
        self.deviceId = deviceId
        self.geotrigger = geotrigger
        self.fence = fence
        self.notificationType = notificationType
        self.at = at
        self.latitude = latitude
        self.longitude = longitude
        self.fired = fired
        self.reason = reason
        self.message = message
        self.actions = actions
        self.properties = properties
        self.messageId = messageId
    }

    public func encode(into w: inout ByteWriter) {
        w.write(user)
        w.write(deviceId)
        w.write(geotrigger)
        w.write(fence)
        w.write(notificationType)
        w.write(signed: at)
        w.write(fixed: latitude.bitPattern)
        w.write(fixed: longitude.bitPattern)
        w.write(fired)
        w.write(reason)
        w.write(message)
        w.write(varint: UInt64(actions.count))
        for action in actions { w.write(action) }
        w.write(properties)
        w.write(messageId)
    }

    public init(from r: inout ByteReader) throws {
        user = try r.readString("user")
        deviceId = try r.readString("device id")
        geotrigger = try r.readString("geotrigger")
        fence = try r.readString("fence")
        notificationType = try r.readString("notification type")
        at = try r.readSigned("at")
        latitude = Double(bitPattern: try r.read(fixed: UInt64.self, "latitude"))
        longitude = Double(bitPattern: try r.read(fixed: UInt64.self, "longitude"))
        fired = try r.readBool("fired")
        reason = try r.readString("reason")
        message = try r.readString("message")
        let count = try r.readVarint("action count")
        actions = []
        for _ in 0..<count { actions.append(try r.readString("action")) }
        properties = try r.readString("properties")
        messageId = try r.readOptionalUUID("message id")
    }
}
