import Forms

/// An upload refused by a rule of the documents: content that is not media of its kind (or not of the type it
/// claims), or a storage quota it would pass. Nothing of it is stored.
public struct DocumentRefusal: Error, Sendable, Hashable, CustomStringConvertible {
    /// Why; stable for programs.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        private enum Kind: String { case unsupportedMediaType, userQuota, namespaceQuota }
        private let kind: Kind
        private init(_ kind: Kind) { self.kind = kind }

        /// The declared type or the content's first bytes are no media type accepted for the kind.
        public static let unsupportedMediaType = Code(.unsupportedMediaType)
        /// The uploader's documents would pass `documentQuotaPerUser`.
        public static let userQuota = Code(.userQuota)
        /// The namespace's documents would pass `documentQuotaPerNamespace`.
        public static let namespaceQuota = Code(.namespaceQuota)

        public var description: String { kind.rawValue }
    }

    public var code: Code
    /// One line: what was refused and what to do.
    public var message: String

    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    public var description: String { message }

    /// The content is not media of `kind`, or not of its declared type.
    static func mediaType(_ problem: String, kind: MediaKind) -> DocumentRefusal {
        DocumentRefusal(
            .unsupportedMediaType,
            "documents: \(problem); a document of kind \(kind.rawValue) takes a Content-Type of "
                + MediaFormat.acceptedTypes(for: kind).joined(separator: ", ")
                + " matching the content's first bytes (SVG and HTML are never stored)")
    }

    /// Bytes in a readable unit: `1.0 GiB`, `512.0 KiB`, `300 bytes`.
    static func readable(_ bytes: UInt64) -> String {
        let units = ["KiB", "MiB", "GiB", "TiB"]
        var value = Double(bytes)
        var unit = "bytes"
        for next in units where value >= 1024 {
            value /= 1024
            unit = next
        }
        return unit == "bytes" ? "\(bytes) bytes" : "\((value * 10).rounded() / 10) \(unit)"
    }
}
