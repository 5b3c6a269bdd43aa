import Foundation
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
        // The same guesses as the upload of a file to a data directory.
        let guessed = Document.describe(fileExtension: url.pathExtension)
        guard let documentKind = kind.flatMap(Document.Kind.init(rawValue:)) ?? guessed?.kind else {
            throw CommandFailure.invalid(
                "cannot tell whether \(url.lastPathComponent) is audio, an image or a video; pass --kind audio|image|video"
            )
        }
        let type =
            contentType ?? (guessed?.kind == documentKind ? guessed?.contentType : nil) ?? "application/octet-stream"
        let ext = url.pathExtension
        let name = try await session.call {
            try await $0.uploadDocument(
                content, contentType: type, kind: documentKind, fileExtension: ext.isEmpty ? nil : ext)
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
