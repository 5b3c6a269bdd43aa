import MusterWire

extension UploadedDocument {
    /// A listed upload as the API and the command line show it.
    public init(_ listed: Documents.Listed) {
        let document = listed.document
        self.init(
            name: document.name, kind: document.kind, size: document.size, contentType: document.contentType,
            uploadedAt: listed.uploadedAt, user: document.uploader)
    }
}
