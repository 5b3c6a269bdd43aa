import EventLog
import Forms
import Foundation

/// Media uploaded as documents: the content goes to the blob store, a `DocumentUploaded` event
/// names it `rcs/<kind>/<uuid>.<ext>`.
public struct Documents: Sendable {
    let log: EventLog

    public init(log: EventLog) { self.log = log }

    /// Extension → kind and content type, for files uploaded without `--kind`.
    static let known: [String: (kind: MediaKind, contentType: String)] = [
        "m4a": (.audio, "audio/mp4"), "mp3": (.audio, "audio/mpeg"), "wav": (.audio, "audio/wav"),
        "aac": (.audio, "audio/aac"), "jpg": (.image, "image/jpeg"), "jpeg": (.image, "image/jpeg"),
        "png": (.image, "image/png"), "heic": (.image, "image/heic"), "mp4": (.video, "video/mp4"),
        "mov": (.video, "video/quicktime"), "m4v": (.video, "video/x-m4v"),
    ]

    /// The extension a name gets when the file has none (or one unfit for a name).
    static let defaultExtension: [MediaKind: String] = [.audio: "m4a", .image: "jpg", .video: "mp4"]

    /// Uploads `file` as a document of `kind` (guessed from the extension when nil).
    ///
    /// The content is streamed into the blob store first, outside the writer; then the event is
    /// appended. Throws `.invalidArgument` when the kind cannot be guessed, `.notFound` when the
    /// file cannot be read.
    @discardableResult
    public func put(
        file: URL, kind: MediaKind? = nil, contentType: String? = nil, user: String,
        namespace: String = Names.defaultNamespace
    ) async throws -> DocumentUploaded {
        let (kind, ext, type) = try Self.describe(
            kind: kind, fileExtension: file.pathExtension, contentType: contentType, what: file.lastPathComponent,
            hint: "pass --kind audio|image|video")
        try Names.validate(namespace, as: "namespace")
        try Names.validate(user, as: "user name")
        let receipt = try await log.blobs.put(contentsOf: file)
        return try await record(
            receipt, kind: kind, fileExtension: ext, contentType: type, user: user, namespace: namespace)
    }

    /// Uploads content arriving in pieces (an HTTP body) as a document of `kind` (guessed from
    /// `fileExtension` or `contentType` when nil).
    @discardableResult
    public func put<Content: AsyncSequence>(
        _ content: Content, kind: MediaKind? = nil, fileExtension: String = "", contentType: String? = nil,
        user: String, namespace: String = Names.defaultNamespace
    ) async throws -> DocumentUploaded where Content.Element == [UInt8] {
        let byType = contentType.flatMap { type in Self.known.first { $0.value.contentType == type } }
        let (kind, ext, type) = try Self.describe(
            kind: kind, fileExtension: fileExtension.isEmpty ? byType?.key ?? "" : fileExtension,
            contentType: contentType, what: "content of type \(contentType ?? "unknown")",
            hint: "name the kind: audio, image or video")
        try Names.validate(namespace, as: "namespace")
        try Names.validate(user, as: "user name")
        let receipt = try await log.blobs.put(content)
        return try await record(
            receipt, kind: kind, fileExtension: ext, contentType: type, user: user, namespace: namespace)
    }

    /// The kind, name extension and content type of an upload.
    private static func describe(
        kind: MediaKind?, fileExtension: String, contentType: String?, what: String, hint: String
    ) throws -> (MediaKind, String, String) {
        var ext = fileExtension.lowercased()
        let guessed = known[ext]
        guard let kind = kind ?? guessed?.kind else {
            throw StoreError(
                .invalidArgument,
                "cannot tell whether \(what) is audio, an image or a video; \(hint)")
        }
        if ext.isEmpty || ext.count > 16 || !ext.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber) }) {
            ext = defaultExtension[kind] ?? "bin"
        }
        let type = contentType ?? (guessed?.kind == kind ? guessed?.contentType : nil) ?? "application/octet-stream"
        return (kind, ext, type)
    }

    private func record(
        _ receipt: BlobStore.Receipt, kind: MediaKind, fileExtension: String, contentType: String, user: String,
        namespace: String
    ) async throws -> DocumentUploaded {
        let document = DocumentUploaded(
            name: "\(kind.prefix)\(EventID.make().uuidString.lowercased()).\(fileExtension)", blob: receipt.info.id.hex,
            kind: kind, contentType: contentType, size: receipt.info.rawSize, uploader: user)
        _ = try await log.perform { scope in
            try scope.append(
                AppendRequest(
                    namespace: namespace, stream: "document/\(document.name)", expectedVersion: .noStream,
                    events: [document.newEvent(actor: user)]))
        }
        return document
    }

    /// The content of a document, chunk by chunk, checked as it is read.
    public func content(of document: DocumentUploaded) throws -> AsyncThrowingStream<[UInt8], any Error> {
        guard let id = BlobID(hex: document.blob) else {
            throw StoreError(.corrupt, "document \(document.name) refers to a malformed blob id")
        }
        return log.blobs.content(id)
    }

    /// The document of this name, or nil.
    public func document(_ name: String, namespace: String = Names.defaultNamespace) throws -> DocumentUploaded? {
        try log.read { reader in
            try reader.projection(DocumentsProjection.name).get(
                "documents", DirectoryProjection.key(namespace, name)
            ).map { value in
                try value.withUnsafeBytes { buffer in
                    var r = ByteReader(buffer)
                    return try DocumentUploaded(from: &r)
                }
            }
        }
    }

    /// Writes the document's content to `url` (which appears only once the content checked out).
    @discardableResult
    public func get(_ name: String, to url: URL, namespace: String = Names.defaultNamespace) throws
        -> DocumentUploaded
    {
        let (document, id) = try find(name, namespace)
        try log.blobs.write(id, to: url)
        return document
    }

    /// Writes the document's content to `handle` (stdout), chunk by chunk.
    @discardableResult
    public func get(_ name: String, to handle: FileHandle, namespace: String = Names.defaultNamespace) throws
        -> DocumentUploaded
    {
        let (document, id) = try find(name, namespace)
        try log.blobs.write(id, to: handle)
        return document
    }

    /// The whole content of a (small) document.
    public func bytes(_ name: String, namespace: String = Names.defaultNamespace) throws -> [UInt8] {
        try log.blobs.bytes(find(name, namespace).1)
    }

    private func find(_ name: String, _ namespace: String) throws -> (DocumentUploaded, BlobID) {
        guard let document = try document(name, namespace: namespace) else {
            throw StoreError(.notFound, "no document named \(String(reflecting: name)) in namespace \(namespace)")
        }
        guard let id = document.blobID else {
            throw StoreError(.corrupt, "document \(name) refers to a malformed blob id \(document.blob)")
        }
        return (document, id)
    }
}
