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

extension Document {
    /// The kind and content type a file name extension stands for, as the server guesses them: `m4a`, `mp3`,
    /// `wav`, `aac` audio; `jpg`, `jpeg`, `png`, `heic` images; `mp4`, `mov`, `m4v` video. Nil for others.
    ///
    /// - Parameter fileExtension: the extension without its dot, in any case, e.g. `JPG`.
    public static func describe(fileExtension: String) -> (kind: Kind, contentType: String)? {
        knownExtensions[fileExtension.lowercased()]
    }

    private static let knownExtensions: [String: (kind: Kind, contentType: String)] = [
        "m4a": (.audio, "audio/mp4"), "mp3": (.audio, "audio/mpeg"), "wav": (.audio, "audio/wav"),
        "aac": (.audio, "audio/aac"), "jpg": (.image, "image/jpeg"), "jpeg": (.image, "image/jpeg"),
        "png": (.image, "image/png"), "heic": (.image, "image/heic"), "mp4": (.video, "video/mp4"),
        "mov": (.video, "video/quicktime"), "m4v": (.video, "video/x-m4v"),
    ]
}
