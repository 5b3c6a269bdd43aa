import EventLog
import Forms
import Foundation

/// Media uploaded as documents: the content goes to the blob store, a `DocumentUploaded` event
/// names it `rcs/<kind>/<uuid>.<ext>`.
public struct Documents: Sendable {
    let log: EventLog

    public init(log: EventLog) { self.log = log }

    /// The extension a name gets when the given one does not fit its type.
    static let defaultExtension: [MediaKind: String] = [.audio: "m4a", .image: "jpg", .video: "mp4"]

    /// Uploads `file` as a document of `kind` (guessed from the extension, else from the content, when nil).
    ///
    /// The first bytes must be media of the kind, and of `contentType` when given (the type stored is the one
    /// the content has otherwise). The content is streamed into the blob store outside the writer; the blob
    /// and its event are committed together, after the storage quotas are checked. Throws `.invalidArgument`
    /// when the kind cannot be told, `.notFound` when the file cannot be read, `MusterError` for content
    /// that is not media of the kind or an upload beyond a quota.
    @discardableResult
    public func put(
        file: URL, kind: MediaKind? = nil, contentType: String? = nil, user: String,
        namespace: String = Names.defaultNamespace
    ) async throws -> DocumentUploaded {
        try Names.validate(namespace, as: "namespace")
        try Names.validate(user, as: "user name")
        let (head, size) = try Self.head(of: file)
        let upload = try Upload(
            kind: kind, fileExtension: file.pathExtension, declaredType: contentType, head: head,
            what: file.lastPathComponent, hint: "pass --kind audio|image|video")
        _ = try quotaAllowance(adding: size, user: user, namespace: namespace)
        return try await log.blobs.put(contentsOf: file) { scope, receipt in
            try Self.record(receipt, upload, user: user, namespace: namespace, in: scope)
        }
    }

    /// Uploads content arriving in pieces (an HTTP body) as a document of `kind` (guessed from
    /// `fileExtension`, `contentType` or the content when nil), checked as `put(file:)` does; beyond a quota
    /// the upload stops as soon as it passes it. `kindHint` tells how to name the kind where it cannot be told.
    @discardableResult
    public func put<Content: AsyncSequence>(
        _ content: Content, kind: MediaKind? = nil, fileExtension: String = "", contentType: String? = nil,
        user: String, namespace: String = Names.defaultNamespace,
        kindHint: String = "name the kind: audio, image or video"
    ) async throws -> DocumentUploaded where Content.Element == [UInt8] {
        try Names.validate(namespace, as: "namespace")
        try Names.validate(user, as: "user name")
        var rest = content.makeAsyncIterator()
        var read: [[UInt8]] = []
        var head: [UInt8] = []
        while head.count < MediaDuration.headLength, let piece = try await rest.next() {
            read.append(piece)
            head += piece.prefix(MediaDuration.headLength - head.count)
        }
        let upload = try Upload(
            kind: kind, fileExtension: fileExtension, declaredType: contentType, head: head,
            what: "content of type \(contentType ?? "unknown")", hint: kindHint)
        let allowance = try quotaAllowance(adding: nil, user: user, namespace: namespace)
        let pieces = QuotaLimitedPieces(read: read, rest: rest, allowance: allowance)
        return try await log.blobs.put(pieces) { scope, receipt in
            try Self.record(receipt, upload, user: user, namespace: namespace, in: scope)
        }
    }

    /// What `put(file:)` would store `file` as — its kind, media type and name extension — checked as it checks
    /// it (for a client that uploads it elsewhere); throws as `put(file:)` does for content it refuses.
    public static func describe(file: URL, kind: MediaKind? = nil, contentType: String? = nil) throws -> (
        kind: MediaKind, contentType: String, fileExtension: String
    ) {
        let upload = try Upload(
            kind: kind, fileExtension: file.pathExtension, declaredType: contentType, head: try head(of: file).0,
            what: file.lastPathComponent, hint: "pass --kind audio|image|video")
        return (upload.kind, upload.contentType, upload.fileExtension)
    }

    /// Up to `MediaDuration.headLength` first bytes of a file, and its size.
    private static func head(of file: URL) throws -> ([UInt8], UInt64) {
        let handle: FileHandle
        do {
            handle = try FileHandle(forReadingFrom: file)
        } catch {
            throw MusterError(.notFound, "cannot read \(file.path): \(error.localizedDescription)")
        }
        defer { try? handle.close() }
        do {
            let head = try handle.read(upToCount: MediaDuration.headLength) ?? Data()
            let size = try handle.seekToEnd()
            return ([UInt8](head), size)
        } catch {
            throw StoreError(.io, "cannot read \(file.path): \(error.localizedDescription)")
        }
    }

    /// Appends the event naming a stored blob, in the transaction that stored it, once the quotas allow it.
    private static func record(
        _ receipt: BlobStore.Receipt, _ upload: Upload, user: String, namespace: String, in scope: WriteScope
    ) throws -> DocumentUploaded {
        try checkQuota(adding: receipt.info.rawSize, user: user, namespace: namespace, in: scope)
        let document = DocumentUploaded(
            name: "\(upload.kind.prefix)\(EventID.make().uuidString.lowercased()).\(upload.fileExtension)",
            blob: receipt.info.id.hex, kind: upload.kind, contentType: upload.contentType,
            size: receipt.info.rawSize, uploader: user, durationMilliseconds: upload.durationMilliseconds)
        try scope.append(
            AppendRequest(
                namespace: namespace, stream: Streams.document(document.name), expectedVersion: .noStream,
                events: [document.newEvent(actor: user)]))
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
        try log.read { try $0.documents.document(name, namespace: namespace) }
    }

    /// The document of this name when `user` may read it — they uploaded it, or a message sent to them shows it
    /// (an `image` or `document` field's url, a `markupImage` source) and was not withdrawn — else nil, as for no
    /// such document.
    public func document(_ name: String, readableBy user: String, namespace: String = Names.defaultNamespace) throws
        -> DocumentUploaded?
    {
        try log.read { reader in
            let documents = try reader.documents
            guard let document = try documents.document(name, namespace: namespace),
                try documents.isReadable(document, by: user, namespace: namespace, inbox: reader.inbox)
            else { return nil }
            return document
        }
    }

    /// Removes a document: nobody reads it by its name afterwards, an answer can no longer name it, and its size no
    /// longer counts against the quotas; the responses and messages that named it keep the name, and its bytes stay
    /// in the blob store. Fails with `.notFound` for no such document. Who may do it (its uploader, an
    /// administrator) is the caller's to decide. Returns the document removed.
    @discardableResult
    public func remove(_ name: String, namespace: String = Names.defaultNamespace, actor: String = "system")
        async throws -> DocumentUploaded
    {
        try Names.validate(namespace, as: "namespace")
        return try await log.perform { scope in
            try scope.remove(
                try scope.documents.document(name, namespace: namespace),
                else: "no document named \(String(reflecting: name)) in namespace \(namespace) (muster documents list)",
                field: "name", recording: DocumentRemoved(name: name), in: Streams.document(name),
                namespace: namespace, actor: actor)
        }
    }

    /// A document as its uploader's list shows it.
    public struct Listed: Sendable, Hashable {
        public var document: DocumentUploaded
        /// When it was uploaded.
        public var uploadedAt: Date
    }

    /// The documents `user` uploaded (nil: everyone's), newest first.
    public func uploads(of user: String?, namespace: String = Names.defaultNamespace) throws -> [Listed] {
        try log.read { try $0.documents.uploads(user: user, namespace: namespace) }
            .map { Listed(document: $0.document, uploadedAt: Date(timeIntervalSince1970: Double($0.uploadedAt) / 1e6)) }
            .sorted { ($0.uploadedAt, $1.document.name) > ($1.uploadedAt, $0.document.name) }
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
            throw MusterError(.notFound, "no document named \(String(reflecting: name)) in namespace \(namespace)")
        }
        guard let id = document.blobID else {
            throw StoreError(.corrupt, "document \(name) refers to a malformed blob id \(document.blob)")
        }
        return (document, id)
    }
}
