extension LocationBody: PlainJSONDecodable {
    /// The members a plain location fix may have.
    private static let plainMembers: Set<String> = ["deviceId", "lat", "lng", "accuracy", "at"]

    /// Reads a fix without Foundation's `JSONDecoder` when it is plain: `deviceId` a string, `lat` and `lng`
    /// numbers, at most `accuracy` (a number) and `at` (a string) besides, each member once, no `\u` escape. Nil for
    /// anything else, which the decoder then reads or refuses with its own errors; where it gives a fix it is the
    /// one the decoder gives. The decoder took 8 % of the request handlers' CPU on the location route (bench
    /// http-locations).
    public init?(plainJSON bytes: [UInt8]) {
        guard let object = PlainJSONObject(bytes, allowed: Self.plainMembers),
            case .string(let deviceId) = object.value("deviceId"), let lat = object.number("lat"),
            let lng = object.number("lng")
        else { return nil }
        self.init(deviceId: deviceId, lat: lat, lng: lng)
        if !object.isAbsent("accuracy") {
            guard let accuracy = object.number("accuracy") else { return nil }
            self.accuracy = accuracy
        }
        switch object.value("at") {
        case nil, .null: break
        case .string(let text): at = text
        default: return nil
        }
    }
}
