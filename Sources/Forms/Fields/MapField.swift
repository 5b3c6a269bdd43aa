/// A `map` field: shows markers and, when it has an `id`, collects a clicked location.
public struct MapField: Sendable, Hashable {
    /// A pin on the map.
    public struct Marker: Sendable, Hashable {
        /// The pin's text.
        public var label: String?
        /// Where it is.
        public var point: MapPoint
        /// Its colour; default red.
        public var color: MarkerColor
    }

    /// The kind of map shown.
    public enum MapType: String, Sendable, Hashable, CaseIterable {
        /// The seed's three map types.
        case standard, satellite, hybrid
    }

    /// The initial centre (an extra invisible marker when there are markers).
    public var location: MapPoint?
    /// Pins to show.
    public var markers: [Marker]
    /// Text shown before the map.
    public var placeholder: String
    /// The map type.
    public var maptype: MapType?
    /// The narrowest viewport in metres.
    public var minMapWidth: Double?
    /// The initial clicked location.
    public var defaultValue: MapPoint?
    /// Whether the user may submit without clicking (value null); ignored when there is a default.
    public var optional: Bool

    init(hasID: Bool, reading reader: inout PropertyReader) {
        location = reader.location("location")
        markers = []
        placeholder = reader.string("placeholder") ?? (hasID ? "View the map and select a location" : "View the map")
        maptype = reader.word("maptype", as: MapType.self)
        minMapWidth = reader.number("minMapWidth")
        defaultValue = reader.location("default")
        optional = reader.bool("optional") ?? false
        readMarkers(&reader)
    }

    private mutating func readMarkers(_ reader: inout PropertyReader) {
        guard let raw = reader.value("markers") else { return }
        guard let elements = raw.arrayValue else {
            reader.report("markers", .wrongType, "must be an array, not \(raw.kindName)")
            return
        }
        for (position, element) in elements.enumerated() {
            let key = "markers[\(position)]"
            guard let object = element.objectValue, let point = MapPoint(json: element) else {
                reader.report(key, .badLocation, "must have numeric \"longitude\" -180...180 and \"latitude\" -90...90")
                continue
            }
            var color = MarkerColor.red
            if let raw = object["color"], !raw.isNull {
                if let parsed = MarkerColor(json: raw) {
                    color = parsed
                } else {
                    reader.report("\(key).color", .badColour, "\(raw) is not a hue 0...359 or a marker colour name")
                }
            }
            markers.append(Marker(label: object["label"]?.stringValue, point: point, color: color))
        }
    }
}
