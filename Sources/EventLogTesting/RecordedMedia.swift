/// Recordings whose headers tell their length, built byte by byte as a recorder writes them, for tests of the
/// checks against a media field's `maxDurationSeconds`.
public enum RecordedMedia {
    /// A WAV file: 8 kHz, 8-bit mono PCM (8,000 bytes a second) of silence lasting `seconds`.
    public static func wav(seconds: Double) -> [UInt8] {
        let data = Int(seconds * 8000)
        let format = le16(1) + le16(1) + le32(8000) + le32(8000) + le16(1) + le16(8)
        let chunks = chunk("fmt ", format) + chunk("data", [UInt8](repeating: 0x80, count: data))
        return Array("RIFF".utf8) + le32(4 + chunks.count) + Array("WAVE".utf8) + chunks
    }

    /// An MP4 file (brand `brand`: `isom` video, `M4A ` audio) whose `moov` comes first, as a "fast start" file:
    /// `mvhd` version 0, time scale 1000, lasting `seconds`; then `padding` bytes of media data.
    public static func mp4(seconds: Double, brand: String = "isom", padding: Int = 64) -> [UInt8] {
        let fileType = box("ftyp", Array(brand.utf8) + be32(0) + Array("\(brand)isom".utf8))
        let header = [0, 0, 0, 0] + be32(0) + be32(0) + be32(1000) + be32(Int(seconds * 1000))
        let movie = box("moov", box("mvhd", header + [UInt8](repeating: 0, count: 80)))
        return fileType + movie + box("mdat", [UInt8](repeating: 0, count: padding))
    }

    /// A WebM file whose `Info` gives `seconds` (a 1 ms timestamp scale), or no duration at all (as a browser's
    /// MediaRecorder writes it); then the start of a cluster.
    public static func webm(seconds: Double?) -> [UInt8] {
        let ebml = element([0x1A, 0x45, 0xDF, 0xA3], element([0x42, 0x82], Array("webm".utf8)))
        var info = element([0x2A, 0xD7, 0xB1], [0x0F, 0x42, 0x40])
        if let seconds { info += element([0x44, 0x89], be64((seconds * 1000).bitPattern)) }
        let unknownSize: [UInt8] = [0x01, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF]
        let cluster: [UInt8] = [0x1F, 0x43, 0xB6, 0x75] + unknownSize + [UInt8](repeating: 0, count: 32)
        return ebml + [0x18, 0x53, 0x80, 0x67] + unknownSize + element([0x15, 0x49, 0xA9, 0x66], info) + cluster
    }

    private static func chunk(_ id: String, _ body: [UInt8]) -> [UInt8] {
        Array(id.utf8) + le32(body.count) + body + (body.count % 2 == 1 ? [0] : [])
    }

    private static func box(_ type: String, _ body: [UInt8]) -> [UInt8] {
        be32(8 + body.count) + Array(type.utf8) + body
    }

    /// An EBML element with a one-byte size (bodies here are below 127 bytes).
    private static func element(_ id: [UInt8], _ body: [UInt8]) -> [UInt8] { id + [0x80 | UInt8(body.count)] + body }

    private static func le16(_ value: Int) -> [UInt8] { [UInt8(value & 0xFF), UInt8(value >> 8 & 0xFF)] }
    private static func le32(_ value: Int) -> [UInt8] { (0..<4).map { UInt8(value >> (8 * $0) & 0xFF) } }
    private static func be32(_ value: Int) -> [UInt8] { (0..<4).reversed().map { UInt8(value >> (8 * $0) & 0xFF) } }
    private static func be64(_ value: UInt64) -> [UInt8] {
        (0..<8).reversed().map { UInt8(truncatingIfNeeded: value >> (8 * UInt64($0))) }
    }
}
