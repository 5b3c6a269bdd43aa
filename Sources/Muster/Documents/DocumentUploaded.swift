import EventLog
import Forms

/// A media file (audio, photo, video) was uploaded as a document: its name refers to a blob.
///
/// A media field's response value (`rcs/audio/<uuid>.m4a` …) and a `document` field of flavor
/// vaudio/vimage/vvideo name such a document.
public struct DocumentUploaded: DomainEvent, Hashable, Codable {
    public static let type = "DocumentUploaded"
    public static let schemaVersion: UInt16 = 1

    /// `rcs/<kind>/<uuid>.<ext>`.
    public var name: String
    /// The blob's id: SHA-256 of the content, 64 lowercase hex digits.
    public var blob: String
    public var kind: MediaKind
    /// MIME type, e.g. `audio/mp4`.
    public var contentType: String
    /// Bytes of the raw content.
    public var size: UInt64
    /// Who uploaded it; only they may fetch it over HTTP.
    public var uploader: String

    /// The blob's id.
    public var blobID: BlobID? { BlobID(hex: blob) }
}
