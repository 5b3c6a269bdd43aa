import ArgumentParser
import EventLog
import Forms
import Foundation
import Muster

/// `muster documents`: media uploaded for audio, camera, video and markupImage fields.
struct Documents: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract:
            "Upload media as documents (rcs/<kind>/<uuid>.<ext>), list them, download them by name, remove them.",
        subcommands: [Put.self, List.self, Get.self, Remove.self])

    struct Put: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Upload a file; prints {name, size} (and blob, its content's digest, on a data directory).",
            discussion: """
                The kind is guessed from the extension (m4a/mp3/wav/aac audio, jpg/jpeg/png/heic image, \
                mp4/mov/m4v video), else from the content; pass --kind to say it. The file's first bytes must \
                be media of the kind (JPEG, PNG, GIF, WebP, HEIC; M4A, MP3, AAC, WAV, Ogg, AMR; MP4, MOV, 3GP, \
                WebM …) and of --content-type when given; SVG, HTML and anything else exit 2. Beyond the \
                namespace's documentQuotaPerUser or documentQuotaPerNamespace setting: exit 1.
                """)

        @OptionGroup var options: BackendOptions
        @Argument(help: "The file to upload.") var file: String
        @Option(help: "audio, image or video (default: from the extension).") var kind: String?
        @Option(help: "MIME type; must match the content (default: the content's own).") var contentType: String?
        @Option(help: "Who uploads it (over HTTP: the logged-in user).") var user = "cli"
        @Option(help: "Namespace (default: default; on a server, the login's).") var namespace: String?

        func validate() throws {
            if let kind, MediaKind(rawValue: kind) == nil {
                throw ValidationError("--kind must be audio, image or video, not \(kind)")
            }
        }

        func run() async throws {
            try InputFile.refuseDirectory(file, expected: "the file to upload")
            let stored = try await options.run(namespace: namespace, creating: true) { backend in
                try await backend.putDocument(
                    file: URL(fileURLWithPath: file), kind: kind.flatMap(MediaKind.init(rawValue:)),
                    contentType: contentType, user: user)
            }
            try Output.json(stored)
        }
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "List uploaded documents, newest first: a table, or JSON with --json.",
            discussion: """
                On a data directory: everyone's, or --user's. Over HTTP (after muster login): your own; an \
                administrator may name another user with --user.
                """)

        @OptionGroup var options: BackendOptions
        @Option(help: "Only this user's uploads.") var user: String?
        @Option(help: "Namespace (default: default; on a server, the login's).") var namespace: String?

        func run() async throws {
            try await options.printRows(namespace: namespace) { try await $0.documents(user: user) }
        }
    }

    struct Get: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Write a document's bytes to stdout, or to --output FILE (with --json, then its name and size).",
            discussion: """
                Over HTTP (after muster login): a document you uploaded, one a message sent to you shows (an image \
                or document field's url, a markupImage source), or any of the namespace for an administrator; \
                anything else exits as not found. On a data directory: any document.
                """)

        @OptionGroup var options: BackendOptions
        @Argument(help: "Document name, e.g. rcs/audio/<uuid>.m4a.") var name: String
        @Option(name: [.short, .long], help: "Write to this file instead of stdout.") var output: String?
        @Option(help: "Namespace (default: default; on a server, the login's).") var namespace: String?

        func run() async throws {
            // The bytes are the output; JSON can only describe where they went.
            if options.json, output == nil {
                throw CommandFailure.invalid(
                    "--json describes the file written with --output FILE; without --output the document's bytes go "
                        + "to stdout as they are — give --output FILE, or leave out --json")
            }
            try await options.run(namespace: namespace) { try await $0.writeDocument(name: name, to: output) }
            if options.json, let output {
                let size = try FileManager.default.attributesOfItem(atPath: output)[.size] as? Int ?? 0
                try Output.json(Written(name: name, size: size, output: output))
            }
        }

        /// What `--json` prints: the document and the file it was written to.
        struct Written: Encodable {
            var name: String
            var size: Int
            var output: String
        }
    }

    struct Remove: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Remove a document; prints {\"removed\": NAME}.",
            discussion: """
                Nobody reads it by its name afterwards, answers can no longer name it, and its size no longer \
                counts against documentQuotaPerUser and documentQuotaPerNamespace. The responses and messages that \
                named it keep the name; its bytes stay in the data directory, as every event does. Over HTTP (after \
                muster login): a document you uploaded, or any of the namespace for an administrator. On a data \
                directory: any document.
                """)

        @OptionGroup var options: BackendOptions
        @Argument(help: "Document name, e.g. rcs/audio/<uuid>.m4a.") var name: String
        @Option(help: "Namespace (default: default; on a server, the login's).") var namespace: String?

        func run() async throws {
            try await options.run(namespace: namespace) { try await $0.removeDocument(name: name) }
            try Output.json(["removed": name])
        }
    }
}
