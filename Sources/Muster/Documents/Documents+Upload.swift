import EventLog
import Forms

extension Documents {
    /// What an upload will be stored as: its kind, the extension of its name and its media type, once its first
    /// bytes showed it is media of that kind (and of the declared type, when one was given).
    struct Upload: Sendable {
        var kind: MediaKind
        var fileExtension: String
        var contentType: String
        /// How long a recording lasts as its header says (`MediaDuration`), in milliseconds; nil for an image or
        /// a header that does not say.
        var durationMilliseconds: UInt64?

        /// - Parameters:
        ///   - kind: the kind asked for; nil to take it from the extension, the declared type or the content.
        ///   - declaredType: the uploader's `Content-Type`; nil (or `application/octet-stream`) for none.
        ///   - head: the content's first bytes (`MediaDuration.headLength` of them, or all of a shorter one).
        ///   - what, hint: how to name the upload, and what to do, when the kind cannot be told.
        init(
            kind: MediaKind?, fileExtension: String, declaredType: String?, head: [UInt8], what: String, hint: String
        ) throws {
            let ext = fileExtension.lowercased()
            let declared = declaredType.map(Self.essence).flatMap {
                $0.isEmpty || $0 == "application/octet-stream" ? nil : $0
            }
            let format = MediaFormat.sniff(head)
            let byExtension = MediaFormat.extensions[ext].flatMap { Self.kind(of: $0) }
            guard let kind = kind ?? byExtension ?? declared.flatMap(Self.kind(of:)) ?? format?.kind else {
                throw MusterError(
                    .invalidArgument, "cannot tell whether \(what) is audio, an image or a video; \(hint)")
            }
            if let declared, !MediaFormat.isAccepted(declared, for: kind) {
                throw MusterError.mediaType("Content-Type \(declared) is not accepted", kind: kind)
            }
            guard let format else {
                throw MusterError.mediaType(
                    "the content's first bytes are none of the media formats this server stores", kind: kind)
            }
            guard let stored = format.type(for: kind) else {
                throw MusterError.mediaType("the content is a \(format.name), not \(kind.rawValue)", kind: kind)
            }
            if let declared, !format.types.contains(declared) {
                throw MusterError.mediaType(
                    "Content-Type \(declared) does not match the content, a \(format.name) (\(stored))", kind: kind)
            }
            self.kind = kind
            contentType = declared ?? stored
            let seconds = kind == .image ? nil : MediaDuration.seconds(in: head)
            durationMilliseconds = seconds.flatMap { $0 < 1e12 ? UInt64(($0 * 1000).rounded()) : nil }
            // The name's extension says the stored type: the given one when it fits that format, else the type's own.
            let fits = MediaFormat.extensions[ext].map(format.types.contains) ?? false
            if fits && ext.count <= 16 && ext.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber) }) {
                self.fileExtension = ext
            } else {
                self.fileExtension =
                    MediaFormat.fileExtension(of: contentType) ?? Documents.defaultExtension[kind] ?? "bin"
            }
        }

        /// `Image/JPEG; charset=x` → `image/jpeg`.
        static func essence(_ type: String) -> String {
            String(type.split(separator: ";", omittingEmptySubsequences: false)[0]).trimmingCharacters(in: .whitespaces)
                .lowercased()
        }

        /// The kind a media type's top level names, if any.
        static func kind(of type: String) -> MediaKind? { MediaKind(rawValue: String(type.prefix { $0 != "/" })) }
    }
}
