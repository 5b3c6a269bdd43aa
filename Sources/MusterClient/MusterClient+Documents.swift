import Foundation
import MusterWire

extension MusterClient {
    /// Uploads a captured image, audio or video clip (`POST /api/v1/documents?kind=…`, the raw bytes); returns
    /// the name the server gave it, e.g. `rcs/image/<uuid>.jpg` — the value of the form's field.
    ///
    /// - Parameters:
    ///   - data: the bytes.
    ///   - contentType: their media type, e.g. `image/jpeg`, `audio/mp4`, `video/mp4`.
    ///   - kind: what they are; it decides the name's folder.
    ///   - fileExtension: the extension the name gets, e.g. `png`; nil for the one the content type suggests.
    public func uploadDocument(
        _ data: Data, contentType: String, kind: Document.Kind, fileExtension: String? = nil
    ) async throws(MusterClientError) -> String {
        var request = APIRequest("POST", ["documents"])
        request.query = [URLQueryItem(name: "kind", value: kind.rawValue)]
        if let fileExtension { request.query.append(URLQueryItem(name: "extension", value: fileExtension)) }
        request.body = data
        request.contentType = contentType
        return try decode(Uploaded.self, from: try await perform(request), of: request).name
    }

    /// The documents the logged-in user uploaded, newest first (`GET /api/v1/documents`); an administrator may
    /// name another user of the namespace.
    public func documents(uploadedBy user: String? = nil) async throws(MusterClientError) -> [UploadedDocument] {
        var request = APIRequest("GET", ["documents"])
        request.query = [user.map { URLQueryItem(name: "user", value: $0) }].compactMap { $0 }
        return try decode([UploadedDocument].self, from: try await perform(request), of: request)
    }

    /// A stored document's bytes and type (`GET /api/v1/documents/{name…}`); the user's own uploads, or any
    /// of the namespace for an admin.
    ///
    /// - Parameter name: the document's name, e.g. `rcs/image/<uuid>.jpg`.
    public func document(name: String) async throws(MusterClientError) -> Document {
        var request = APIRequest("GET", ["documents"] + name.split(separator: "/").map(String.init))
        request.accept = "*/*"
        let response = try await perform(request)
        return Document(name: name, contentType: response.contentType, data: response.body)
    }

    /// Removes a document (`DELETE /api/v1/documents/{name}`): one's own upload, or any of the namespace for an
    /// administrator. Nobody reads it by its name afterwards, and it no longer counts against the storage quotas.
    /// Throws `not_found` for no such document (or another user's), `forbidden` for one a message showed you.
    public func removeDocument(name: String) async throws(MusterClientError) {
        _ = try await perform(APIRequest("DELETE", ["documents"] + name.split(separator: "/").map(String.init)))
    }
}

private struct Uploaded: Decodable {
    var name: String
}
