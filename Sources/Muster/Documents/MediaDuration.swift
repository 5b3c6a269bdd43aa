/// How long a recording lasts, as its header says, read without a media library from the file's first bytes:
/// - WAV: the `fmt ` chunk's byte rate and the `data` chunk's size;
/// - ISO base media (MP4, M4A, MOV, M4V, 3GP): `moov`/`mvhd`'s time scale and duration, when `moov` comes
///   before the media data (a "fast start" file; a recorder that writes it last leaves the length unknown);
/// - WebM/Matroska: `Segment`/`Info`'s `TimestampScale` and `Duration`, when the recorder wrote one (a browser's
///   MediaRecorder does not).
/// Any other format, or a header that does not tell, gives nil: the length is then not known.
enum MediaDuration {
    /// Bytes of a file's start read for its duration.
    static let headLength = 64 * 1024

    /// The duration in seconds the header in `head` (a file's first bytes) gives, or nil.
    static func seconds(in head: [UInt8]) -> Double? {
        switch MediaFormat.sniff(Array(head.prefix(MediaFormat.headerLength))) {
        case MediaFormat.wav: wave(head)
        case MediaFormat.mp4, MediaFormat.m4a, MediaFormat.m4v, MediaFormat.quickTime, MediaFormat.threeGPP:
            isoMedia(head)
        case MediaFormat.matroska: matroska(head)
        default: nil
        }
    }

    /// RIFF chunks after `RIFF <size> WAVE`: the byte rate in `fmt `, then the size of `data`.
    private static func wave(_ bytes: [UInt8]) -> Double? {
        var offset = 12
        var byteRate: UInt64?
        while let size = littleEndian(bytes, at: offset + 4, count: 4) {
            let body = offset + 8
            switch text(bytes, at: offset, count: 4) {
            case "fmt ": byteRate = littleEndian(bytes, at: body + 8, count: 4)
            case "data":
                guard let byteRate, byteRate > 0 else { return nil }
                return Double(size) / Double(byteRate)
            default: break
            }
            // Chunks are padded to an even size.
            guard size <= UInt64(bytes.count) else { return nil }
            offset = body + Int(size) + Int(size & 1)
        }
        return nil
    }

    /// Top-level boxes up to `moov`, then its `mvhd`: version 0 holds 32-bit times, version 1 64-bit ones.
    private static func isoMedia(_ bytes: [UInt8]) -> Double? {
        var offset = 0
        var end = bytes.count
        while let box = isoBox(bytes, at: offset, end: end) {
            switch box.type {
            case "moov":
                offset = box.body
                end = box.end
            case "mvhd":
                guard box.body < bytes.count else { return nil }
                let isLong = bytes[box.body] == 1
                guard
                    let scale = bigEndian(bytes, at: box.body + (isLong ? 20 : 12), count: 4),
                    let duration = bigEndian(bytes, at: box.body + (isLong ? 24 : 16), count: isLong ? 8 : 4),
                    scale > 0, duration != (isLong ? UInt64.max : UInt64(UInt32.max))
                else { return nil }
                return Double(duration) / Double(scale)
            default:
                guard box.end > offset else { return nil }
                offset = box.end
            }
        }
        return nil
    }

    /// The box at `offset`: its type, where its body starts and where it ends (past `head` for a large one).
    private static func isoBox(_ bytes: [UInt8], at offset: Int, end: Int) -> (type: String, body: Int, end: Int)? {
        guard offset + 8 <= end, let size32 = bigEndian(bytes, at: offset, count: 4) else { return nil }
        let type = text(bytes, at: offset + 4, count: 4)
        switch size32 {
        case 0: return (type, offset + 8, end)
        case 1:
            guard let size = bigEndian(bytes, at: offset + 8, count: 8), size >= 16 else { return nil }
            return (type, offset + 16, size > UInt64(Int.max / 2) ? Int.max / 2 : offset + Int(size))
        default:
            guard size32 >= 8 else { return nil }
            return (type, offset + 8, offset + Int(size32))
        }
    }

    /// EBML elements, `Segment` and `Info` entered, the rest skipped, until the first `Cluster` (media data).
    private static func matroska(_ bytes: [UInt8]) -> Double? {
        let segment: UInt64 = 0x1853_8067
        let info: UInt64 = 0x1549_A966
        let cluster: UInt64 = 0x1F43_B675
        let timestampScale: UInt64 = 0x2A_D7B1
        let durationID: UInt64 = 0x4489
        var scale = 1_000_000.0
        var duration: Double?
        var offset = 0
        while let element = elementID(bytes, at: offset), let sized = elementSize(bytes, at: offset + element.length) {
            let id = element.id
            let body = offset + element.length + sized.length
            let length = sized.size.flatMap { $0 <= UInt64(bytes.count) ? Int($0) : nil }
            switch id {
            case segment, info:
                offset = body
                continue
            case cluster: break
            case timestampScale:
                if let length, let value = bigEndian(bytes, at: body, count: length), value > 0 {
                    scale = Double(value)
                }
            case durationID:
                if length == 4, let raw = bigEndian(bytes, at: body, count: 4) {
                    duration = Double(Float(bitPattern: UInt32(raw)))
                } else if length == 8, let raw = bigEndian(bytes, at: body, count: 8) {
                    duration = Double(bitPattern: raw)
                }
            default: break
            }
            guard id != cluster, let length else { break }
            offset = body + length
        }
        return duration.flatMap { $0.isFinite && $0 >= 0 ? $0 * scale / 1e9 : nil }
    }

    /// An EBML element id at `offset` (1 to 4 bytes, its length marker kept) and its length.
    private static func elementID(_ bytes: [UInt8], at offset: Int) -> (id: UInt64, length: Int)? {
        guard offset < bytes.count, bytes[offset] != 0 else { return nil }
        let length = bytes[offset].leadingZeroBitCount + 1
        guard length <= 4, let id = bigEndian(bytes, at: offset, count: length) else { return nil }
        return (id, length)
    }

    /// An EBML element size at `offset` (1 to 8 bytes, its length marker dropped) and its length; the size is
    /// nil when all its bits are ones ("unknown", as a live recording writes it).
    private static func elementSize(_ bytes: [UInt8], at offset: Int) -> (size: UInt64?, length: Int)? {
        guard offset < bytes.count, bytes[offset] != 0 else { return nil }
        let length = bytes[offset].leadingZeroBitCount + 1
        guard let raw = bigEndian(bytes, at: offset, count: length) else { return nil }
        let mask = UInt64.max >> (64 - 7 * length)
        let value = raw & mask
        return (value == mask ? nil : value, length)
    }

    private static func bigEndian(_ bytes: [UInt8], at offset: Int, count: Int) -> UInt64? {
        guard offset >= 0, count <= 8, offset + count <= bytes.count else { return nil }
        return bytes[offset..<offset + count].reduce(0) { $0 << 8 | UInt64($1) }
    }

    private static func littleEndian(_ bytes: [UInt8], at offset: Int, count: Int) -> UInt64? {
        guard offset >= 0, count <= 8, offset + count <= bytes.count else { return nil }
        return bytes[offset..<offset + count].reversed().reduce(0) { $0 << 8 | UInt64($1) }
    }

    private static func text(_ bytes: [UInt8], at offset: Int, count: Int) -> String {
        guard offset + count <= bytes.count else { return "" }
        return String(decoding: bytes[offset..<offset + count], as: UTF8.self)
    }
}
