import Foundation

/// A document in a list of uploads (`GET /api/v1/documents`, `muster documents list`): what it is and who uploaded
/// it when, without its bytes.
public struct UploadedDocument: Sendable, Hashable, Codable {
    /// The document's name, e.g. `rcs/image/a20ab0c1-337d-4ace-af30-3c7b9136d0be.jpg`.
    public var name: String
    public var kind: Document.Kind
    /// Its size in bytes.
    public var size: UInt64
    /// Its stored `Content-Type`, e.g. `image/jpeg`.
    public var contentType: String
    public var uploadedAt: Date
    /// Who uploaded it.
    public var user: String

    /// Creates an entry from its parts.
    public init(name: String, kind: Document.Kind, size: UInt64, contentType: String, uploadedAt: Date, user: String) {
        self.name = name
        self.kind = kind
        self.size = size
        self.contentType = contentType
        self.uploadedAt = uploadedAt
        self.user = user
    }
}
