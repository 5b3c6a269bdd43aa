/// The first bytes of real media files, for tests of uploads that check content against its type.
public enum MediaSamples {
    /// A file of `format` (jpeg, png, gif, webp, heic, mp4, mov, m4v, m4a, 3gp, webm, ogg, mp3, aac, wav, amr,
    /// flac): its real header, then `size` bytes in all.
    public static func file(_ format: String, size: Int = 64) -> [UInt8] {
        let head = header(format)
        return head + (0..<max(0, size - head.count)).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) }
    }

    /// The header of `format`; traps for a format not listed (a test's typo).
    public static func header(_ format: String) -> [UInt8] {
        func ftyp(_ brand: String) -> [UInt8] {
            [0, 0, 0, 0x18] + Array("ftyp\(brand)".utf8) + [0, 0, 0, 0] + Array("\(brand)isom".utf8)
        }
        switch format {
        case "jpeg": return [0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x10] + Array("JFIF".utf8) + [0, 1, 1, 0]
        case "png": return [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 0x0D] + Array("IHDR".utf8)
        case "gif": return Array("GIF89a".utf8) + [1, 0, 1, 0]
        case "webp": return Array("RIFF".utf8) + [0x24, 0, 0, 0] + Array("WEBPVP8 ".utf8)
        case "heic": return ftyp("heic")
        case "mp4": return ftyp("isom")
        case "mov": return ftyp("qt  ")
        case "m4v": return ftyp("M4V ")
        case "m4a": return ftyp("M4A ")
        case "3gp": return ftyp("3gp4")
        case "webm": return [0x1A, 0x45, 0xDF, 0xA3, 0x9F, 0x42, 0x86, 0x81, 0x01]
        case "ogg": return Array("OggS".utf8) + [0, 2, 0, 0]
        case "mp3": return Array("ID3".utf8) + [3, 0, 0, 0, 0, 0, 0]
        case "aac": return [0xFF, 0xF1, 0x50, 0x80, 0x02, 0x1F, 0xFC]
        case "wav": return Array("RIFF".utf8) + [0x24, 0, 0, 0] + Array("WAVEfmt ".utf8)
        case "amr": return Array("#!AMR\n".utf8)
        case "flac": return Array("fLaC".utf8) + [0, 0, 0, 0x22]
        default: preconditionFailure("no sample header for \(format)")
        }
    }

    /// An HTML page with a script: what an attacker uploads as a "photo".
    public static let htmlWithScript = Array("<!DOCTYPE html><html><script>alert(document.cookie)</script></html>".utf8)
    /// An SVG image whose `onload` runs a script.
    public static let svgWithOnload = Array(
        #"<svg xmlns="http://www.w3.org/2000/svg" onload="alert(document.cookie)"><rect width="1"/></svg>"#.utf8)
}
