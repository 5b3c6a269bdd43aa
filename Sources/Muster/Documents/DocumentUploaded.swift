import EventLog
import Forms

/// A media file (audio, photo, video) was uploaded as a document: its name refers to a blob.
///
/// A media field's response value (`rcs/audio/<uuid>.m4a` …) and a `document` field of flavor
/// vaudio/vimage/vvideo name such a document.
public struct DocumentUploaded: DomainEvent, Hashable {
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

    public init(name: String, blob: String, kind: MediaKind, contentType: String, size: UInt64, uploader: String) {
        self.name = name
        self.blob = blob
        self.kind = kind
        self.contentType = contentType
        self.size = size
        self.uploader = uploader
    }

    /// The blob's id.
    public var blobID: BlobID? { BlobID(hex: blob) }

    public func encode(into w: inout ByteWriter) {
        w.write(name)
        w.write(blob)
        w.write(kind.rawValue)
        w.write(contentType)
        w.write(varint: size)
        w.write(uploader)
    }

    public init(from r: inout ByteReader) throws {
        name = try r.readString("document name")
        blob = try r.readString("blob id")
        let kind = try r.readString("media kind")
        guard let known = MediaKind(rawValue: kind) else { throw StoreError(.corrupt, "unknown media kind \(kind)") }
        self.kind = known
        contentType = try r.readString("content type")
        size = try r.readVarint("size")
        uploader = try r.readString("uploader")
    }

    private enum CodingKeys: String, CodingKey { case name, blob, kind, contentType, size, uploader }
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(name, forKey: .name)
        try c.encode(blob, forKey: .blob)
        try c.encode(kind.rawValue, forKey: .kind)
        try c.encode(contentType, forKey: .contentType)
        try c.encode(size, forKey: .size)
        try c.encode(uploader, forKey: .uploader)
    }
}
