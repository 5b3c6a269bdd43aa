import MusterWire

/// A device's session object (seed 001): a JSON object it attaches on the first level of every message it
/// publishes, as `SessionObject`, once it was given one.
enum SessionObject {
    static let key = "SessionObject"
    private static let keyBytes = Array(key.utf8)

    /// The JSON text of `body`'s first-level `SessionObject` (the last one when it appears twice); nil when it
    /// has none or is not a JSON object.
    static func find(in body: [UInt8]) -> [UInt8]? {
        // Most messages carry no session object: skip the scan unless the key, or an escape that could spell
        // it, is there.
        guard body.containsByte(UInt8(ascii: "\\")) || body.containsBytes(keyBytes) else { return nil }
        guard let document = try? JSONScanner.scan(body), document.isObject,
            let member = document.members.last(where: { $0.key == key })
        else { return nil }
        return Array(body[member.value])
    }
}
