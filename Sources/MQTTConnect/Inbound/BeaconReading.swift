import Foundation
import MusterWire

/// One beacon of a publication's `Beacons` member, as iOS ranging reports it (CLBeacon's properties).
///
/// Seed 001's example is not valid JSON (`[ "Beacon1": {…} ]`), so both an array of objects and an object of
/// objects are read; member names match in any letter case, and the proximity UUID is `uuid` (iOS 13's name) or
/// `proximityUUID` (the older iOS name, and seed 004's).
public struct BeaconReading: Sendable, Hashable {
    /// How close iOS judges the beacon: CLProximity's four cases.
    public enum Proximity: String, Sendable, Hashable, CaseIterable {
        /// CLProximity 0.
        case unknown
        /// CLProximity 1.
        case immediate
        /// CLProximity 2.
        case near
        /// CLProximity 3.
        case far
    }

    /// The member name in the object form (`"Beacon1"`); nil in the array form.
    public var name: String?
    /// The proximity UUID.
    public var uuid: UUID
    /// The major number, 0...65535.
    public var major: Int
    /// The minor number, 0...65535.
    public var minor: Int
    /// The received signal strength in dBm; iOS reports 0 when it has no reading.
    public var rssi: Int?
    /// iOS's proximity category.
    public var proximity: Proximity?
    /// iOS's distance estimate in metres; negative when unknown.
    public var accuracy: Double?

    /// Creates a reading.
    public init(
        name: String? = nil, uuid: UUID, major: Int, minor: Int, rssi: Int? = nil, proximity: Proximity? = nil,
        accuracy: Double? = nil
    ) {
        self.name = name
        self.uuid = uuid
        self.major = major
        self.minor = minor
        self.rssi = rssi
        self.proximity = proximity
        self.accuracy = accuracy
    }

    /// The signal strength rules take, in dBm: `rssi`, or a faint -100 when iOS had no reading (0, or none) — never
    /// 0 dBm, which would be the strongest signal there is.
    public var signalStrength: Int { rssi.flatMap { $0 == 0 ? nil : $0 } ?? -100 }

    /// Reads the `Beacons` member: an array of beacon objects or an object of them.
    static func readAll(_ value: JSONValue) throws(PublicationRefusal) -> [BeaconReading] {
        var readings: [BeaconReading] = []
        if let elements = value.arrayValue {
            for (position, element) in elements.enumerated() {
                readings.append(try BeaconReading(element, name: nil, path: "Beacons[\(position)]"))
            }
        } else if let members = value.objectValue {
            for key in members.keys.sorted() {
                readings.append(try BeaconReading(members[key] ?? .null, name: key, path: "Beacons.\(key)"))
            }
        } else {
            throw PublicationRefusal(
                member: "Beacons", reason: "must be an array or an object of beacon objects, not \(value.kindName)")
        }
        return readings
    }

    private init(_ value: JSONValue, name: String?, path: String) throws(PublicationRefusal) {
        guard let object = value.objectValue else {
            throw PublicationRefusal(
                member: path, reason: "must be a beacon object {uuid, major, minor, rssi…}, not \(value.kindName)")
        }
        // One spelling per member, whatever its letter case.
        var members: [String: JSONValue] = [:]
        for (key, member) in object { members[key.lowercased()] = member }
        if members["uuid"] == nil, let old = members["proximityuuid"] { members["uuid"] = old }
        let reader = MemberReader(members, path: path)
        let text = try reader.required("uuid") { key throws(PublicationRefusal) in try reader.string(key) }
        guard let uuid = UUID(uuidString: text) else {
            throw reader.refusal("uuid", "must be a UUID like F2A74FC4-7625-44DB-9B08-CB7E130B2029, not \"\(text)\"")
        }
        self.name = name
        self.uuid = uuid
        major = try reader.required("major") { key throws(PublicationRefusal) in try reader.integer(key, in: 0...65535)
        }
        minor = try reader.required("minor") { key throws(PublicationRefusal) in try reader.integer(key, in: 0...65535)
        }
        rssi = try reader.integer("rssi", in: -200...0)
        accuracy = try reader.number("accuracy")
        proximity = try Self.proximity(reader)
    }

    private static func proximity(_ reader: MemberReader) throws(PublicationRefusal) -> Proximity? {
        guard let value = reader.value("proximity") else { return nil }
        if let code = value.intValue, (0...3).contains(code) { return Proximity.allCases[code] }
        if let text = value.stringValue, let word = Proximity(rawValue: text.lowercased()) { return word }
        throw reader.refusal(
            "proximity", "must be 0...3 (CLProximity) or \"unknown\", \"immediate\", \"near\", \"far\", not \(value)")
    }
}
