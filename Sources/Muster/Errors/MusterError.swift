/// A request refused by a rule of the domain: an unknown user, a bad time zone, a password too short, a device
/// of another user, a document over its quota. Nothing of the request was stored.
///
/// The store's own failures (I/O, damage, formats, version conflicts of an append) are `StoreError`.
public struct MusterError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Which rule refused; stable for programs, extensible without breaking callers.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        private enum Kind: String {
            case invalidArgument, notFound, conflict, tooLarge, unsupportedMediaType, userQuota, namespaceQuota
        }
        private let kind: Kind
        private init(_ kind: Kind) { self.kind = kind }

        /// A value given (a field of a body, an argument) breaks a rule; the message names the rule.
        public static let invalidArgument = Code(.invalidArgument)
        /// Something named (a user, an area, a message, a document) does not exist.
        public static let notFound = Code(.notFound)
        /// The request contradicts what is stored: a taken name, an answered message, another user's device.
        public static let conflict = Code(.conflict)
        /// A value is above a limit of the domain (the push size of a payload); the message names both.
        public static let tooLarge = Code(.tooLarge)
        /// Content is not media of its kind, or not of the type it claims.
        public static let unsupportedMediaType = Code(.unsupportedMediaType)
        /// The uploader's documents would pass `documentQuotaPerUser`.
        public static let userQuota = Code(.userQuota)
        /// The namespace's documents would pass `documentQuotaPerNamespace`.
        public static let namespaceQuota = Code(.namespaceQuota)

        public var description: String { kind.rawValue }
    }

    /// Which rule refused.
    public var code: Code
    /// One line: what was refused and what to do next.
    public var message: String
    /// The field or argument the refusal concerns, as the caller named it (`username`, `password`); nil when
    /// it concerns the request as a whole.
    public var field: String?

    public init(_ code: Code, _ message: String, field: String? = nil) {
        self.code = code
        self.message = message
        self.field = field
    }

    public var description: String { message }
}
