import Forms
import Foundation
import Muster
import MusterClient

extension Documents.Put {
    /// `POST /api/v1/documents`: the file's bytes, uploaded by the logged-in user.
    func run(on session: ServerSession) async throws {
        if user != "cli" { try session.requireSelf(user, option: "--user", why: "the uploader is who uploads it") }
        try session.requireNamespace(namespace)
        let url = URL(fileURLWithPath: file)
        let content: Data
        do {
            content = try Data(contentsOf: url)
        } catch {
            throw CommandFailure.invalid("cannot read \(file): \(error.localizedDescription)")
        }
        // The same checks as the upload of a file to a data directory; the server makes them again.
        let upload = try Muster.Documents.describe(
            file: url, kind: kind.flatMap(MediaKind.init(rawValue:)), contentType: contentType)
        guard let documentKind = Document.Kind(rawValue: upload.kind.rawValue) else {
            throw CommandFailure.invalid("--kind must be audio, image or video")
        }
        let name = try await session.call {
            try await $0.uploadDocument(
                content, contentType: upload.contentType, kind: documentKind, fileExtension: upload.fileExtension)
        }
        try Output.json(PutResult(name: name, size: UInt64(content.count), blob: nil))
    }
}

extension Documents.Get {
    /// `GET /api/v1/documents/{name…}`: the logged-in user's uploads, or any of the namespace for an administrator.
    func run(on session: ServerSession) async throws {
        try session.requireNamespace(namespace)
        let document = try await session.call { try await $0.document(name: name) }
        if let output {
            do {
                try document.data.write(to: URL(fileURLWithPath: output))
            } catch {
                throw CommandFailure.failed("cannot write \(output): \(error.localizedDescription)")
            }
        } else {
            signal(SIGPIPE, SIG_IGN)
            try? FileHandle.standardOutput.write(contentsOf: document.data)
        }
    }
}
