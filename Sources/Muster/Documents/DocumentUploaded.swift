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
    /// Who uploaded it; they (and the recipients of messages showing it) may fetch it over HTTP.
    public var uploader: String
    /// How long the recording lasts, in milliseconds, as its header said when it was uploaded (`MediaDuration`);
    /// nil when the header does not say (or for an image). Written after the other fields only when known, so
    /// a document without one keeps the bytes schema 1 always had.
    public var durationMilliseconds: UInt64?

    /// The blob's id.
    public var blobID: BlobID? { BlobID(hex: blob) }
}

/// Schema 1's layout, written by hand: a field written only when present does not fit `BinaryCoding`.
extension DocumentUploaded {
    public func encode(into w: inout ByteWriter) {
        w.write(name)
        w.write(blob)
        w.write(kind.rawValue)
        w.write(contentType)
        w.write(varint: size)
        w.write(uploader)
        if let durationMilliseconds { w.write(varint: durationMilliseconds) }
    }

    public init(from r: inout ByteReader) throws {
        name = try r.readString("name")
        blob = try r.readString("blob")
        let kindName = try r.readString("kind")
        guard let kind = MediaKind(rawValue: kindName) else {
            throw StoreError(.corrupt, "document \(name) has an unknown kind \(String(reflecting: kindName))")
        }
        self.kind = kind
        contentType = try r.readString("content type")
        size = try r.readVarint("size")
        uploader = try r.readString("uploader")
        durationMilliseconds = r.remaining > 0 ? try r.readVarint("duration") : nil
    }
}
