import Foundation
import MusterWire

/// A picture from the app's Camera tab: the decoded bytes and their media type, sniffed from the bytes.
///
/// Seed 001 says pictures come "decoded as base64" without naming the member; Muster reads `CameraContent` (after
/// `QRContent` and `NFCContent`) and `Image` (the DialogMessage's name for a picture), as base64 or a
/// `data:image/…;base64,` URL.
public struct DevicePicture: Sendable, Hashable {
    /// The members a picture is read from, in order of preference.
    public static let members = ["CameraContent", "Image"]

    /// The member it came in.
    public var member: String
    /// The picture's bytes.
    public var data: Data
    /// `image/jpeg`, `image/png` or `image/heic`.
    public var mediaType: String

    /// Creates a picture.
    public init(member: String, data: Data, mediaType: String) {
        self.member = member
        self.data = data
        self.mediaType = mediaType
    }

    /// Decodes the member's text.
    static func read(_ value: JSONValue, member: String) throws(PublicationRefusal) -> DevicePicture {
        guard let text = value.stringValue else {
            throw PublicationRefusal(member: member, reason: "must be a base64 string, not \(value.kindName)")
        }
        var encoded = Substring(text)
        if encoded.hasPrefix("data:") {
            guard let comma = encoded.firstIndex(of: ","), encoded[..<comma].hasSuffix(";base64") else {
                throw PublicationRefusal(member: member, reason: "is a data: URL without ;base64, data")
            }
            encoded = encoded[encoded.index(after: comma)...]
        }
        // Line breaks are allowed in base64 (iOS can add them); other characters are not.
        let bytes = encoded.utf8.filter { $0 != 0x0A && $0 != 0x0D && $0 != 0x20 }
        guard let data = Data(base64Encoded: Data(bytes)), !data.isEmpty else {
            throw PublicationRefusal(member: member, reason: "is not base64 text")
        }
        guard let mediaType = mediaType(of: data) else {
            throw PublicationRefusal(member: member, reason: "is base64 but not a JPEG, PNG or HEIC picture")
        }
        return DevicePicture(member: member, data: data, mediaType: mediaType)
    }

    /// The media type the bytes' signature shows: JPEG, PNG or HEIC; nil for anything else.
    public static func mediaType(of data: Data) -> String? {
        let head = [UInt8](data.prefix(12))
        if head.starts(with: [0xFF, 0xD8, 0xFF]) { return "image/jpeg" }
        if head.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return "image/png" }
        if head.count == 12, head[4..<8].elementsEqual("ftyp".utf8) {
            let brand = String(decoding: head[8..<12], as: UTF8.self)
            if heicBrands.contains(brand) { return "image/heic" }
        }
        return nil
    }

    /// The ISO base media file brands of HEIF images (ISO/IEC 23008-12).
    private static let heicBrands: Set<String> = [
        "heic", "heix", "hevc", "hevx", "heim", "heis", "hevm", "hevs", "mif1", "msf1",
    ]
}
