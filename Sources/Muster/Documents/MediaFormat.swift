import Forms

/// A media container recognised by its first bytes (its magic number), and the media types a document of that
/// format may be stored under. Nothing here can carry script: SVG, HTML and XML are never recognised.
public struct MediaFormat: Sendable, Hashable {
    /// A short name for messages, e.g. `PNG image`.
    public var name: String
    /// The media types it may be declared as, the usual one of each kind first.
    public var types: [String]

    /// Bytes of a file's start that `sniff` looks at.
    public static let headerLength = 32

    /// The format of a file starting with `head`, or nil when it is no media format this server stores.
    public static func sniff(_ head: [UInt8]) -> MediaFormat? {
        func at(_ offset: Int, _ text: String) -> Bool {
            let bytes = Array(text.utf8)
            return head.count >= offset + bytes.count && Array(head[offset..<offset + bytes.count]) == bytes
        }
        func starts(_ bytes: [UInt8]) -> Bool { head.starts(with: bytes) }
        if starts([0xFF, 0xD8, 0xFF]) { return jpeg }
        if starts([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return png }
        if at(0, "GIF87a") || at(0, "GIF89a") { return gif }
        if at(0, "RIFF") && at(8, "WEBP") { return webp }
        if at(0, "RIFF") && at(8, "WAVE") { return wav }
        if at(0, "RIFF") && at(8, "AVI ") { return avi }
        if at(4, "ftyp"), head.count >= 12 { return isoMedia(brand: String(decoding: head[8..<12], as: UTF8.self)) }
        if at(4, "moov") || at(4, "mdat") || at(4, "wide") { return quickTime }
        if starts([0x1A, 0x45, 0xDF, 0xA3]) { return matroska }
        if at(0, "OggS") { return ogg }
        if at(0, "fLaC") { return flac }
        if at(0, "#!AMR-WB\n") { return amrWideband }
        if at(0, "#!AMR\n") { return amr }
        if at(0, "ID3") { return mp3 }
        if head.count >= 2, head[0] == 0xFF, head[1] & 0xE0 == 0xE0 {
            // Frame sync: layer bits 00 mark an ADTS (AAC) frame, anything else an MPEG audio frame.
            return head[1] & 0x06 == 0 ? aac : mp3
        }
        return nil
    }

    /// The format of an ISO base media file (`ftyp` box) by its major brand.
    static func isoMedia(brand: String) -> MediaFormat {
        switch brand {
        case "heic", "heix", "heim", "heis", "hevc", "hevx", "mif1", "msf1": heif
        case "avif", "avis": avif
        case "M4A ", "M4B ", "M4P ", "F4A ": m4a
        case "qt  ": quickTime
        case "M4V ", "M4VH", "M4VP": m4v
        default: brand.hasPrefix("3g") ? threeGPP : mp4
        }
    }

    /// Every media type a document of `kind` may be stored under.
    public static func acceptedTypes(for kind: MediaKind) -> [String] {
        var types: [String] = []
        for format in all {
            for type in format.types where type.hasPrefix("\(kind.rawValue)/") && !types.contains(type) {
                types.append(type)
            }
        }
        return types
    }

    /// Whether `type` is one a stored document of `kind` may be served as.
    public static func isAccepted(_ type: String, for kind: MediaKind) -> Bool {
        acceptedTypes(for: kind).contains(type)
    }

    /// The type this format is stored as for `kind`; nil when it is no media of that kind.
    public func type(for kind: MediaKind) -> String? { types.first { $0.hasPrefix("\(kind.rawValue)/") } }

    /// The kind of its usual type.
    public var kind: MediaKind? { types.first.flatMap { MediaKind(rawValue: String($0.prefix { $0 != "/" })) } }

    /// The usual extension of a type, for a document name (`image/png` → `png`); nil for an unknown type.
    public static func fileExtension(of type: String) -> String? {
        preferred[type] ?? extensions.filter { $0.value == type }.map(\.key).min()
    }

    /// Extension → type, to guess a kind and type from a file name.
    public static let extensions: [String: String] = [
        "jpg": "image/jpeg", "jpeg": "image/jpeg", "png": "image/png", "gif": "image/gif", "webp": "image/webp",
        "heic": "image/heic", "heif": "image/heif", "avif": "image/avif",
        "m4a": "audio/mp4", "mp3": "audio/mpeg", "wav": "audio/wav", "aac": "audio/aac", "ogg": "audio/ogg",
        "opus": "audio/opus", "flac": "audio/flac", "amr": "audio/amr", "awb": "audio/amr-wb",
        "mp4": "video/mp4", "mov": "video/quicktime", "m4v": "video/x-m4v", "3gp": "video/3gpp",
        "webm": "video/webm", "mkv": "video/x-matroska", "avi": "video/x-msvideo",
    ]
    /// The extension a type's names get where it has several.
    static let preferred: [String: String] = ["image/jpeg": "jpg", "audio/x-m4a": "m4a", "audio/mp3": "mp3"]

    static let jpeg = MediaFormat(name: "JPEG image", types: ["image/jpeg"])
    static let png = MediaFormat(name: "PNG image", types: ["image/png"])
    static let gif = MediaFormat(name: "GIF image", types: ["image/gif"])
    static let webp = MediaFormat(name: "WebP image", types: ["image/webp"])
    static let heif = MediaFormat(name: "HEIF image", types: ["image/heic", "image/heif"])
    static let avif = MediaFormat(name: "AVIF image", types: ["image/avif"])
    static let mp4 = MediaFormat(
        name: "MP4 file", types: ["video/mp4", "audio/mp4", "audio/x-m4a", "video/quicktime", "video/x-m4v"])
    static let m4a = MediaFormat(name: "M4A audio", types: ["audio/mp4", "audio/x-m4a", "audio/aac", "video/mp4"])
    static let m4v = MediaFormat(name: "M4V video", types: ["video/x-m4v", "video/mp4"])
    static let quickTime = MediaFormat(name: "QuickTime movie", types: ["video/quicktime", "video/mp4"])
    static let threeGPP = MediaFormat(name: "3GP file", types: ["video/3gpp", "audio/3gpp", "video/mp4", "audio/mp4"])
    static let matroska = MediaFormat(
        name: "WebM/Matroska file", types: ["video/webm", "audio/webm", "video/x-matroska", "audio/x-matroska"])
    static let ogg = MediaFormat(name: "Ogg file", types: ["audio/ogg", "audio/opus", "video/ogg"])
    static let flac = MediaFormat(name: "FLAC audio", types: ["audio/flac", "audio/x-flac"])
    static let amr = MediaFormat(name: "AMR audio", types: ["audio/amr"])
    static let amrWideband = MediaFormat(name: "AMR-WB audio", types: ["audio/amr-wb"])
    static let mp3 = MediaFormat(name: "MP3 audio", types: ["audio/mpeg", "audio/mp3"])
    static let aac = MediaFormat(name: "AAC audio", types: ["audio/aac", "audio/aacp"])
    static let wav = MediaFormat(name: "WAV audio", types: ["audio/wav", "audio/x-wav", "audio/wave"])
    static let avi = MediaFormat(name: "AVI video", types: ["video/x-msvideo", "video/avi"])

    /// Every format, images first.
    static let all = [
        jpeg, png, gif, webp, heif, avif, m4a, mp3, aac, wav, ogg, flac, amr, amrWideband, mp4, quickTime, m4v,
        threeGPP, matroska, avi,
    ]
}
