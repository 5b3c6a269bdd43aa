import Foundation

/// A stored document (the seed's ArsDocument): a captured image, audio or video clip.
public struct Document: Sendable, Hashable {
    /// The document's name, e.g. `rcs/image/a20ab0c1-337d-4ace-af30-3c7b9136d0be.jpg`.
    public var name: String
    /// The stored `Content-Type`, e.g. `image/jpeg`; nil when the server sent none.
    public var contentType: String?
    /// The bytes.
    public var data: Data

    /// Creates a document from its parts.
    public init(name: String, contentType: String?, data: Data) {
        self.name = name
        self.contentType = contentType
        self.data = data
    }

    /// What a document holds; it decides the name's folder (`rcs/<kind>/…`).
    public enum Kind: String, Sendable, Hashable, Codable, CaseIterable {
        /// An audio clip.
        case audio
        /// A photo or an edited image.
        case image
        /// A video clip.
        case video
    }
}
