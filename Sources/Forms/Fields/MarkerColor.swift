import MusterWire

/// A map marker's colour: an HSV hue 0...359 or one of the hue names (default red).
public struct MarkerColor: Sendable, Hashable {
    /// The hue in degrees, 0...359.
    public var hue: Int

    /// The colour names and their hues. The seed's list is missing (line 761); these are the
    /// standard map-marker hues its "HSV hue" wording refers to.
    public static let names: [String: Int] = [
        "red": 0, "orange": 30, "yellow": 60, "green": 120, "cyan": 180,
        "azure": 210, "blue": 240, "violet": 270, "magenta": 300, "rose": 330,
    ]

    /// The default, red.
    public static let red = MarkerColor(hue: 0)

    /// Creates a colour from a hue.
    public init(hue: Int) { self.hue = hue }

    /// Reads a hue number 0...359 or a colour name; nil for anything else.
    public init?(json: JSONValue) {
        if let hue = json.intValue, (0...359).contains(hue) {
            self.hue = hue
        } else if let name = json.stringValue, let hue = Self.names[name.lowercased()] {
            self.hue = hue
        } else {
            return nil
        }
    }
}
