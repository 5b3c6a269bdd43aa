/// Why a device's publication was refused: the member at fault (`GPS.Latitude`, `Beacons[2].major`) or the
/// whole body, and what was expected.
public struct PublicationRefusal: Error, Sendable, Hashable, CustomStringConvertible {
    /// The member at fault as a path from the first level; nil when the body as a whole is refused.
    public let member: String?
    /// What is wrong and what was expected.
    public let reason: String

    /// Creates a refusal.
    public init(member: String?, reason: String) {
        self.member = member
        self.reason = reason
    }

    /// `GPS.Latitude: must be a number in -90...90, not 123` or `body: is not JSON`.
    public var description: String { "\(member ?? "body"): \(reason)" }
}
