/// The payload of an event: opaque bytes plus how they are encoded.
///
/// User-supplied JSON stays JSON bytes that only the code needing it parses; domain events use the
/// compact binary codec (`ByteWriter`) so replay does not pay for JSON.
public struct EventBody: Sendable, Hashable {
    /// How `bytes` are encoded.
    public enum Format: UInt8, Sendable {
        case json = 0
        case binary = 1
    }

    public var format: Format
    public var bytes: [UInt8]

    public init(format: Format, bytes: [UInt8]) {
        self.format = format
        self.bytes = bytes
    }

    /// A JSON body; the text is stored as given (callers validate it at the edge).
    public static func json(_ text: String) -> EventBody { EventBody(format: .json, bytes: Array(text.utf8)) }

    /// A binary body written with `ByteWriter`.
    public static func binary(_ bytes: [UInt8]) -> EventBody { EventBody(format: .binary, bytes: bytes) }
}
