import EventLog
import Foundation

/// A device entered or left an area; rules with a latch time wait for quiet before counting it.
///
/// Schema 2 adds the area's kind after the latches; schema 1 (0.1.0) reads with an empty kind, the one area of
/// that id when it was recorded.
public struct AreaTransition: DomainEvent, Hashable {
    public static let type = "AreaTransition"
    public static let schemaVersion: UInt16 = 2

    /// What detected it.
    public enum Source: String, Sendable, Hashable, Codable {
        /// The server, from a location fix.
        case location
        /// The server, from a beacon sighting (or a beacon no longer seen).
        case beacon
        /// The device itself (its OS's region monitoring).
        case device
    }

    /// A rule of the area that waits for its latch time before evaluating this transition.
    public struct Latch: Sendable, Hashable, Encodable {
        public var rule: String
        /// When it evaluates unless another event for the area comes first, µs since 1970.
        public var dueAt: Int64
    }

    public var user: String
    public var deviceId: String
    public var area: String
    /// `on_entry` or `on_exit`.
    public var trigger: String
    public var source: Source
    /// When it happened (the fix or sighting time), µs since 1970.
    public var at: Int64
    /// Where the device was; nil for beacon transitions without a location.
    public var latitude: Double?
    public var longitude: Double?
    /// The beacon's proximity for beacon transitions.
    public var proximity: String?
    public var latches: [Latch]
    /// `geofence` or `beacon`; empty in schema 1.
    public var kind: String
}

/// Schema 1's layout then the kind, written by hand: one presence byte stands for latitude and longitude together,
/// which `BinaryCoding`'s optionals do not do.
extension AreaTransition {
    public func encode(into w: inout ByteWriter) {
        w.write(user)
        w.write(deviceId)
        w.write(area)
        w.write(trigger)
        w.write(source.rawValue)
        w.write(signed: at)
        w.write(latitude != nil)
        if let latitude, let longitude {
            w.write(fixed: latitude.bitPattern)
            w.write(fixed: longitude.bitPattern)
        }
        w.write(proximity ?? "")
        w.write(varint: UInt64(latches.count))
        for latch in latches {
            w.write(latch.rule)
            w.write(signed: latch.dueAt)
        }
        w.write(kind)
    }

    public init(from r: inout ByteReader) throws {
        user = try r.readString("user")
        deviceId = try r.readString("device id")
        area = try r.readString("area")
        trigger = try r.readString("trigger")
        let source = try r.readString("source")
        guard let known = Source(rawValue: source) else {
            throw StoreError(.corrupt, "unknown transition source \(source)")
        }
        self.source = known
        at = try r.readSigned("at")
        if try r.readBool("location flag") {
            latitude = Double(bitPattern: try r.read(fixed: UInt64.self, "latitude"))
            longitude = Double(bitPattern: try r.read(fixed: UInt64.self, "longitude"))
        }
        let proximity = try r.readString("proximity")
        self.proximity = proximity.isEmpty ? nil : proximity
        let count = try r.readVarint("latch count")
        latches = []
        for _ in 0..<count {
            latches.append(Latch(rule: try r.readString("rule"), dueAt: try r.readSigned("due at")))
        }
        kind = try r.readString("kind")
    }
}
