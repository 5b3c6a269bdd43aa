import Foundation

/// The URL-safe base64 of RFC 4648 §5 that Web Push uses for keys, secrets and salts: `-` and `_` for `+` and `/`,
/// no padding written, padding accepted when read.
public enum WebPushBase64URL {
    /// `bytes` as unpadded base64url.
    public static func encode(_ bytes: some Sequence<UInt8>) -> String {
        var text = Data(bytes).base64EncodedString()
        while text.hasSuffix("=") { text.removeLast() }
        return String(
            text.map { character in
                switch character {
                case "+": "-"
                case "/": "_"
                default: character
                }
            })
    }

    /// The bytes of base64url `text`, padded or not; nil when it holds a character outside the alphabet or its
    /// length cannot be base64.
    public static func decode(_ text: String) -> [UInt8]? {
        var unpadded = Substring(text)
        while unpadded.hasSuffix("=") { unpadded.removeLast() }
        guard unpadded.count % 4 != 1 else { return nil }
        var standard = ""
        standard.reserveCapacity(unpadded.count + 3)
        for character in unpadded {
            switch character {
            case "-": standard.append("+")
            case "_": standard.append("/")
            case "A"..."Z", "a"..."z", "0"..."9": standard.append(character)
            default: return nil
            }
        }
        standard.append(String(repeating: "=", count: (4 - standard.count % 4) % 4))
        return Data(base64Encoded: standard).map { [UInt8]($0) }
    }
}
