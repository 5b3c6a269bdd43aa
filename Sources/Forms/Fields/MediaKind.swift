import MusterWire

/// The folder a captured document is stored under: `rcs/audio/`, `rcs/image/` or `rcs/video/` — the wire's kind of
/// document, one type on every edge.
public typealias MediaKind = Document.Kind

extension Document.Kind {
    /// The document-name prefix, e.g. `rcs/audio/`.
    public var prefix: String { "rcs/\(rawValue)/" }

    /// Whether `name` is `rcs/<kind>/<file>` with a non-empty file name and no further folders or spaces.
    public func isDocumentName(_ name: String) -> Bool {
        guard name.hasPrefix(prefix) else { return false }
        let file = name.dropFirst(prefix.count)
        return !file.isEmpty && !file.contains("/") && !file.contains(where: \.isWhitespace)
    }
}
