/// Why bytes are not an iBeacon advertisement: the offset, what was expected there and what
/// was found.
public struct BeaconParseError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Which rule the input broke.
    public let code: Code
    /// The byte offset in the advertisement (or character offset in the hex text for `badHex`).
    public let offset: Int
    /// What the layout requires there.
    public let expected: String
    /// What the input holds there.
    public let found: String

    /// Creates a parse error.
    public init(_ code: Code, offset: Int, expected: String, found: String) {
        self.code = code
        self.offset = offset
        self.expected = expected
        self.found = found
    }

    /// e.g. `offset 5: expected company id 4C 00 (Apple), found 59 00 [unexpected-byte]`.
    public var description: String { "offset \(offset): expected \(expected), found \(found) [\(code)]" }

    /// The parse rules; extensible without breaking callers.
    public struct Code: Sendable, Hashable, CustomStringConvertible {
        private let name: String
        private init(_ name: String) { self.name = name }

        /// The code's short name.
        public var description: String { name }

        /// The hex text has a character that is not a hex digit, or an odd number of digits.
        public static let badHex = Code("bad-hex")
        /// The data ends before the 30 bytes of the layout.
        public static let tooShort = Code("too-short")
        /// A byte of the fixed header differs from the seed's layout.
        public static let unexpectedByte = Code("unexpected-byte")
        /// Non-zero bytes follow the 30 bytes of the layout.
        public static let trailingBytes = Code("trailing-bytes")
    }
}
