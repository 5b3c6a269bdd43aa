/// A `markupImage` field: the value is the name of the marked-up JPEG, `rcs/image/<uuid>.jpg`.
public struct MarkupImageField: Sendable, Hashable {
    /// Where the image comes from, e.g. "camera"; the seed's list of the three sources is missing, so any string.
    public var source: String?
    /// Text shown before editing; default depends on the source.
    public var placeholder: String
    /// Whether the user may submit without editing (value null).
    public var optional: Bool

    init(reading reader: inout PropertyReader) {
        source = reader.string("source")
        placeholder =
            reader.string("placeholder") ?? (source == "camera" ? "Take a photo and mark it up" : "Mark up an image")
        optional = reader.bool("optional") ?? false
    }
}
