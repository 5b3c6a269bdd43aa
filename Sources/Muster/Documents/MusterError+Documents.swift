import Forms

extension MusterError {
    /// The content is not media of `kind`, or not of its declared type.
    static func mediaType(_ problem: String, kind: MediaKind) -> MusterError {
        MusterError(
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
