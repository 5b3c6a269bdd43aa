import Forms
import Foundation
import HTTPTypes
import Hummingbird
import Muster
import MusterWire

/// `/documents`: media for audio, camera, video and markupImage fields — uploaded raw, fetched by name by their
/// uploader, the recipients of messages showing them, and administrators.
struct DocumentController: APIController {
    let api: API

    func addRoutes(to routes: some RouterMethods<API.Context>) {
        routes
            .post("documents", for: .user, use: upload)
            .get("documents", for: .user, use: list)
            .get("documents/**", for: .user, use: document)
            .delete("documents/**", for: .user, use: remove)
    }

    /// The answer of an upload.
    struct Uploaded: ResponseEncodable {
        var name: String
        var size: UInt64
        var contentType: String
    }

    /// The caller's own uploads, newest first; an administrator may name another user with `?user=`.
    @Sendable func list(_ request: Request, context: API.Context, caller: API.Caller) async throws
        -> [UploadedDocument]
    {
        // `?user=` naming nobody is the caller's own list, as without it.
        var user =
            request.uri.queryParameters.get("user").map { String($0) }.flatMap { $0.isEmpty ? nil : $0 }
            ?? caller.username
        guard user == caller.username || caller.isAdmin else {
            throw APIError(
                .forbidden, "forbidden", "only an administrator may list another user's documents",
                fields: [.init(field: "user", message: "leave it out to list your own documents")])
        }
        if user != caller.username {
            guard let named = try api.directory.user(user, namespace: caller.namespace) else {
                throw APIError(
                    .notFound, "not_found", "no user \(user) in namespace \(caller.namespace)",
                    fields: [.init(field: "user", message: "expected a user of namespace \(caller.namespace)")])
            }
            user = named.name
        }
        return try api.documents.uploads(of: user, namespace: caller.namespace).map(UploadedDocument.init)
    }

    @Sendable func upload(_ request: Request, context: API.Context, caller: API.Caller) async throws -> EditedResponse<
        Uploaded
    > {
        let kind = try request.query("kind", "audio, image or video") { MediaKind(rawValue: $0) }
        let ext = request.uri.queryParameters.get("extension") ?? ""
        let type = request.headers[.contentType].map { String($0.split(separator: ";")[0]) }
        let limit = api.configuration.documentLimit
        // A declared length above the limit is refused before a byte is read; an undeclared one as it streams.
        if let length = request.headers[.contentLength].flatMap({ Int($0) }), length > limit {
            throw APIError.documentTooLarge(limit: limit)
        }
        let pieces = request.body.map { buffer in [UInt8](buffer: buffer) }
        let counted = LimitedBytes(base: pieces, limit: limit)
        let document = try await api.documents.put(
            counted, kind: kind, fileExtension: ext, contentType: type, user: caller.username,
            namespace: caller.namespace, kindHint: "name the kind: audio, image or video, as in ?kind=image")
        return EditedResponse(
            status: .created,
            response: Uploaded(name: document.name, size: document.size, contentType: document.contentType))
    }

    @Sendable func document(_ request: Request, context: API.Context, caller: API.Caller) async throws -> Response {
        let name = context.remainingPath()
        // The uploader, the recipients of a message showing it, and administrators; anyone else is told what
        // a missing document tells, so names of others' documents cannot be probed.
        let readable =
            caller.isAdmin
            ? try api.documents.document(name, namespace: caller.namespace)
            : try api.documents.document(name, readableBy: caller.username, namespace: caller.namespace)
        guard let document = readable else {
            throw APIError(.notFound, "not_found", "you have no document \(name), nor a message showing it")
        }
        let content = try api.documents.content(of: document)
        return Response(
            status: .ok, headers: Self.servingHeaders(document),
            body: ResponseBody(asyncSequence: content.map { ByteBuffer(bytes: $0) }))
    }

    /// Removes a document: the uploader's own, or any of the namespace for an administrator. Someone a message
    /// showed it to may read it but not remove it (403); anyone else is told what a missing document tells.
    @Sendable func remove(_ request: Request, context: API.Context, caller: API.Caller) async throws
        -> HTTPResponse.Status
    {
        let name = context.remainingPath()
        if !caller.isAdmin {
            guard
                let document = try api.documents.document(
                    name, readableBy: caller.username, namespace: caller.namespace)
            else {
                throw APIError(.notFound, "not_found", "you have no document \(name), nor a message showing it")
            }
            guard document.uploader == caller.username else {
                throw APIError(
                    .forbidden, "forbidden",
                    "only \(document.uploader), who uploaded \(name), or an administrator may remove it",
                    fields: [.init(field: "name", message: "expected a document you uploaded")])
            }
        }
        try await api.documents.remove(name, namespace: caller.namespace, actor: caller.username)
        return .noContent
    }

    /// Headers that keep a browser from running a document, even one the same origin links to: no type
    /// sniffing, a sandbox without scripts, and a download for anything not of a media type its kind accepts
    /// (documents stored before uploads were checked may claim `text/html`; they go out as bytes).
    static func servingHeaders(_ document: DocumentUploaded) -> HTTPFields {
        let isMedia = MediaFormat.isAccepted(document.contentType, for: document.kind)
        let file = document.name.split(separator: "/").last.map(String.init) ?? "document"
        // The name is ours (`<uuid>.<ext>`), but an older one is quoted safely all the same.
        let quoted = file.filter { $0.isASCII && $0 != "\"" && $0 != "\\" && !$0.isNewline }
        var headers: HTTPFields = [
            .contentType: isMedia ? document.contentType : "application/octet-stream",
            .contentLength: String(document.size),
        ]
        headers[HTTPField.Name("X-Content-Type-Options")!] = "nosniff"
        headers[HTTPField.Name("Content-Security-Policy")!] = "sandbox"
        headers[HTTPField.Name("Content-Disposition")!] = "\(isMedia ? "inline" : "attachment"); filename=\"\(quoted)\""
        return headers
    }
}

/// The pieces of an upload, refused with 413 once they pass `limit` bytes.
struct LimitedBytes<Base: AsyncSequence & Sendable>: AsyncSequence, Sendable where Base.Element == [UInt8] {
    typealias Element = [UInt8]
    let base: Base
    let limit: Int

    struct AsyncIterator: AsyncIteratorProtocol {
        var base: Base.AsyncIterator
        let limit: Int
        var total = 0

        mutating func next() async throws -> [UInt8]? {
            guard let piece = try await base.next() else { return nil }
            total += piece.count
            if total > limit {
                throw APIError.documentTooLarge(limit: limit)
            }
            return piece
        }
    }

    func makeAsyncIterator() -> AsyncIterator { AsyncIterator(base: base.makeAsyncIterator(), limit: limit) }
}

extension APIError {
    /// The 413 of an upload above the server's document limit, naming it.
    static func documentTooLarge(limit: Int) -> APIError {
        APIError(
            .contentTooLarge, "too_large",
            "the document is above this server's limit of \(limit) bytes (serve --max-document-size)",
            fields: [.init(field: "body", message: "at most \(limit) bytes")])
    }
}
