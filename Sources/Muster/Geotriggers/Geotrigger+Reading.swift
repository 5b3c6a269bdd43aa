import EventLog
import Forms
import Foundation
import Geo
import MusterWire

extension Geotrigger {
    /// Reads the API's JSON form:
    /// `{"name","fences":{"areas":[ids]} | GeoJSON FeatureCollection of Points with properties.radius,
    ///   "rule":"enter"|"exit"|"enterOrExit","bufferDistance":m,"messageExpression":"…","requestedActions":[…]}`.
    /// Throws `.invalidArgument` naming the field; an expression error names its line and column.
    public static func read(_ data: Data, id: String) throws -> Geotrigger {
        guard case .object(let object)? = try? JSONValue(json: data) else {
            throw MusterError(.invalidArgument, "the geotrigger is not a JSON object")
        }
        func fail(_ field: String, _ expected: String) -> MusterError {
            MusterError(.invalidArgument, "\(field): expected \(expected)", field: field)
        }
        if let given = object["id"], (given.stringValue ?? given.description) != id {
            throw fail("id", "\(id) (the path's) or nothing")
        }
        let name = object["name"]?.stringValue ?? ""
        var ruleText = "enterOrExit"
        if let value = object["rule"] {
            guard let text = value.stringValue else { throw fail("rule", "enter, exit or enterOrExit") }
            ruleText = text
        }
        guard let rule = Rule(rawValue: ruleText) else { throw fail("rule", "enter, exit or enterOrExit") }
        var buffer = 0.0
        if let value = object["bufferDistance"], !value.isNull {
            guard let metres = value.doubleValue, metres >= 0, metres <= 100_000 else {
                throw fail("bufferDistance", "metres from 0 to 100000")
            }
            buffer = metres
        }
        guard let source = object["messageExpression"]?.stringValue, !source.isEmpty else {
            throw fail("messageExpression", "an Arcade expression such as \"You have \" + $fencenotificationtype")
        }
        do {
            _ = try MessageExpression(source)
        } catch {
            throw MusterError(.invalidArgument, "messageExpression: \(error)")
        }
        var actions: [String] = []
        if let value = object["requestedActions"], !value.isNull {
            guard let list = value.arrayValue, list.allSatisfy({ $0.stringValue != nil }) else {
                throw fail("requestedActions", "a list of strings")
            }
            actions = list.compactMap(\.stringValue)
        }
        var areas: [String] = []
        var fences: [Fence] = []
        switch object["fences"] {
        case nil, .null?: break
        case .object(let set)? where set["areas"] != nil:
            guard let list = set["areas"]?.arrayValue, list.allSatisfy({ $0.stringValue != nil }) else {
                throw fail("fences.areas", "a list of area ids")
            }
            areas = list.compactMap(\.stringValue)
        case .object(let collection)? where collection["type"]?.stringValue == "FeatureCollection":
            guard let features = collection["features"]?.arrayValue else {
                throw fail("fences.features", "a list of GeoJSON features")
            }
            for (i, feature) in features.enumerated() {
                fences.append(try Self.fence(feature, path: "fences.features[\(i)]"))
            }
        default:
            throw fail("fences", "{\"areas\":[…]} or a GeoJSON FeatureCollection")
        }
        return Geotrigger(
            id: id, name: name, areas: areas, fences: fences, rule: rule, bufferDistance: buffer,
            messageExpression: source, requestedActions: actions)
    }

    /// A GeoJSON Point feature with `properties.radius` (metres) as a circular fence, or a Polygon
    /// feature (one ring, no holes).
    static func fence(_ feature: JSONValue, path: String) throws -> Fence {
        guard let object = feature.objectValue, object["type"]?.stringValue == "Feature" else {
            throw MusterError(.invalidArgument, "\(path): expected a GeoJSON Feature")
        }
        let properties = object["properties"]?.objectValue ?? [:]
        let id =
            object["id"]?.stringValue ?? object["id"]?.doubleValue.map { String(Int($0)) }
            ?? String(path.split(separator: "[").last?.dropLast() ?? "")
        let geometry = object["geometry"]?.objectValue ?? [:]
        switch geometry["type"]?.stringValue {
        case "Point":
            guard let position = geometry["coordinates"]?.arrayValue, position.count >= 2,
                let longitude = position[0].doubleValue, let latitude = position[1].doubleValue,
                (-90...90).contains(latitude), (-180...180).contains(longitude)
            else {
                throw MusterError(.invalidArgument, "\(path).geometry.coordinates: expected [longitude, latitude]")
            }
            guard let radius = properties["radius"]?.doubleValue, radius >= 0, radius <= 40_075_017 else {
                throw MusterError(.invalidArgument, "\(path).properties.radius: expected metres ≥ 0 for a Point fence")
            }
            return Fence(id: id, latitude: latitude, longitude: longitude, radius: radius, attributes: properties)
        case "Polygon":
            guard let rings = geometry["coordinates"]?.arrayValue, let outer = rings.first?.arrayValue else {
                throw MusterError(
                    .invalidArgument, "\(path).geometry.coordinates: expected [[[longitude, latitude], …]]")
            }
            guard rings.count == 1 else {
                throw MusterError(
                    .invalidArgument, "\(path).geometry.coordinates: holes are not supported (one ring only)")
            }
            var ring: [[Double]] = []
            for (i, position) in outer.enumerated() {
                guard let pair = position.arrayValue, pair.count >= 2, let longitude = pair[0].doubleValue,
                    let latitude = pair[1].doubleValue, (-90...90).contains(latitude), (-180...180).contains(longitude)
                else {
                    throw MusterError(
                        .invalidArgument, "\(path).geometry.coordinates[0][\(i)]: expected [longitude, latitude]")
                }
                ring.append([longitude, latitude])
            }
            let fence = Fence(
                id: id, latitude: ring[0][1], longitude: ring[0][0], radius: 0, ring: ring, attributes: properties)
            guard fence.polygon != nil else {
                throw MusterError(.invalidArgument, "\(path).geometry.coordinates: a ring needs 3 or more positions")
            }
            return fence
        default:
            throw MusterError(
                .invalidArgument, "\(path).geometry: expected a Point with properties.radius or a Polygon")
        }
    }

    /// The API's JSON form with `"monitor":"running"|"stopped"`, as the listings show it (`read` ignores it).
    public func json(monitor: GeotriggerMonitor.State) -> JSONValue {
        guard case .object(var object) = json else { return json }
        object["monitor"] = .string(monitor.rawValue)
        return .object(object)
    }

    /// The API's JSON form, as `read` takes it.
    public var json: JSONValue {
        var object: [String: JSONValue] = [
            "id": .string(id), "name": .string(name), "rule": .string(rule.rawValue),
            "bufferDistance": .number(bufferDistance), "messageExpression": .string(messageExpression),
            "requestedActions": .array(requestedActions.map(JSONValue.string)),
        ]
        if fences.isEmpty {
            object["fences"] = .object(["areas": .array(areas.map(JSONValue.string))])
        } else {
            object["fences"] = .object([
                "type": .string("FeatureCollection"),
                "features": .array(
                    fences.map { fence in
                        .object([
                            "type": .string("Feature"), "id": .string(fence.id),
                            "geometry": fence.ring.map { ring in
                                .object([
                                    "type": .string("Polygon"),
                                    "coordinates": .array([.array(ring.map { .array($0.map(JSONValue.number)) })]),
                                ])
                            }
                                ?? .object([
                                    "type": .string("Point"),
                                    "coordinates": .array([.number(fence.longitude), .number(fence.latitude)]),
                                ]),
                            "properties": .object(fence.attributes),
                        ])
                    }),
            ])
        }
        return .object(object)
    }
}
