import Foundation
import MusterWire

/// What a QR code or NFC tag held: JSON kept as JSON, anything else as text (seed 001: "In case the QR-code
/// holds a valid JSON it will not be converted to a String but also be represented as a object").
public enum ScannedContent: Sendable, Hashable {
    /// An object or array: sent as one by the device, or text that parses as one.
    case json(JSONValue)
    /// Plain text, including text that is a bare JSON number or word (`"42"` stays the text scanned).
    case text(String)

    /// Reads the `QRContent` or `NFCContent` member.
    static func read(_ value: JSONValue, member: String) throws(PublicationRefusal) -> ScannedContent {
        switch value {
        case .string(let text):
            if let parsed = try? JSONValue(json: Data(text.utf8)), parsed.objectValue != nil || parsed.arrayValue != nil
            {
                return .json(parsed)
            }
            return .text(text)
        case .object, .array, .number, .bool:
            return .json(value)
        case .null:
            throw PublicationRefusal(member: member, reason: "must be the scanned text or JSON, not null")
        }
    }

    /// The content as JSON: the value itself, or the text as a string.
    public var json: JSONValue {
        switch self {
        case .json(let value): value
        case .text(let text): .string(text)
        }
    }
}
