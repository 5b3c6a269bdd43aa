/// A coordinate, radius or ring that cannot describe a place on the Earth, with the value at fault.
public struct GeometryError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Which rule the value broke.
    public let code: Code
    /// What is wrong, in words, including the offending value.
    public let message: String

    /// Creates a geometry error.
    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    /// `message [code]`.
    public var description: String { "\(message) [\(code)]" }

    /// The geometry rules; extensible without breaking callers.
    public struct Code: Sendable, Hashable, CustomStringConvertible {
        private let name: String
        private init(_ name: String) { self.name = name }

        /// The code's short name.
        public var description: String { name }

        /// A latitude outside -90...90 or not finite.
        public static let latitudeOutOfRange = Code("latitude-out-of-range")
        /// A longitude outside -180...180 or not finite.
        public static let longitudeOutOfRange = Code("longitude-out-of-range")
        /// A radius that is negative or not finite.
        public static let badRadius = Code("bad-radius")
        /// A polygon ring with fewer than three distinct vertices.
        public static let tooFewVertices = Code("too-few-vertices")
    }
}
