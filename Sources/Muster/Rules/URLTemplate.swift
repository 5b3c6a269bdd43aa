import Foundation

/// The seed's URL templates: `{id}`, `{lat}`, `{lng}`, `{udid}` and `{namespace}` replaced by
/// URL-encoded values.
public enum URLTemplate {
    public struct Values: Sendable, Hashable {
        public var area: String
        public var latitude: Double?
        public var longitude: Double?
        public var deviceId: String
        public var namespace: String

        public init(area: String, latitude: Double?, longitude: Double?, deviceId: String, namespace: String) {
            self.area = area
            self.latitude = latitude
            self.longitude = longitude
            self.deviceId = deviceId
            self.namespace = namespace
        }
    }

    /// Characters left as they are in a substituted value (RFC 3986 unreserved).
    static let unreserved = CharacterSet(
        charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")

    public static func expand(_ template: String, _ values: Values) -> String {
        func encoded(_ text: String) -> String { text.addingPercentEncoding(withAllowedCharacters: unreserved) ?? text }
        return
            template
            .replacingOccurrences(of: "{id}", with: encoded(values.area))
            .replacingOccurrences(of: "{lat}", with: values.latitude.map { encoded(String($0)) } ?? "")
            .replacingOccurrences(of: "{lng}", with: values.longitude.map { encoded(String($0)) } ?? "")
            .replacingOccurrences(of: "{udid}", with: encoded(values.deviceId))
            .replacingOccurrences(of: "{namespace}", with: encoded(values.namespace))
    }
}
