/// An `image` field: shows an image, no input.
public struct ImageField: Sendable, Hashable {
    /// The image's URL; required.
    public var url: String

    init(reading reader: inout PropertyReader) {
        url = reader.string("url", required: true) ?? ""
    }
}
