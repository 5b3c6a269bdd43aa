/// A `document` field: shows a document or captured media, no input.
public struct DocumentField: Sendable, Hashable {
    /// What kind of document `url` points to.
    public enum Flavor: String, Sendable, Hashable, CaseIterable {
        /// A PDF, a web page, or captured audio, image or video.
        case pdf, html, vaudio, vimage, vvideo

        /// The captured-media kind a `v…` flavor plays back, if any.
        public var media: MediaKind? {
            switch self {
            case .vaudio: .audio
            case .vimage: .image
            case .vvideo: .video
            case .pdf, .html: nil
            }
        }
    }

    /// The flavor; optional in the seed.
    public var flavor: Flavor?
    /// The document's URL, or for `v…` flavors a document name like `rcs/audio/<uuid>.m4a`; required.
    public var url: String
    /// Text shown before loading; default depends on the flavor.
    public var placeholder: String

    init(reading reader: inout PropertyReader) {
        flavor = reader.word("flavor", as: Flavor.self)
        url = reader.string("url", required: true) ?? ""
        placeholder =
            reader.string("placeholder") ?? (flavor == .pdf ? "View the PDF document" : "View the Web document")
    }
}
