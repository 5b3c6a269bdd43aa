import Foundation

/// The URL-safe base64 of RFC 4648 §5 that Web Push uses for keys, secrets and salts: `-` and `_` for `+` and `/`,
/// no padding written, padding accepted when read.
public enum WebPushBase64URL {
    /// `bytes` as unpadded base64url.
    public static func encode(_ bytes: some Sequence<UInt8>) -> String {
        var text = Array(Data(bytes).base64EncodedData())
        while text.last == UInt8(ascii: "=") { text.removeLast() }
        for index in text.indices {
            switch text[index] {
            case UInt8(ascii: "+"): text[index] = UInt8(ascii: "-")
            case UInt8(ascii: "/"): text[index] = UInt8(ascii: "_")
            default: break
            }
        }
        return String(decoding: text, as: UTF8.self)
    }

    /// The bytes of base64url `text`, padded or not; nil when it holds a character outside the alphabet or its
    /// length cannot be base64.
    public static func decode(_ text: String) -> [UInt8]? {
        var standard = Array(text.utf8)
        while standard.last == UInt8(ascii: "=") { standard.removeLast() }
        guard standard.count % 4 != 1 else { return nil }
        for index in standard.indices {
            switch standard[index] {
            case UInt8(ascii: "-"): standard[index] = UInt8(ascii: "+")
            case UInt8(ascii: "_"): standard[index] = UInt8(ascii: "/")
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"):
                break
            default: return nil
            }
        }
        standard += repeatElement(UInt8(ascii: "="), count: (4 - standard.count % 4) % 4)
        return Data(base64Encoded: Data(standard)).map { [UInt8]($0) }
    }
}
