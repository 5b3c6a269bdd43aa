import Foundation
import MusterWire
import Synchronization

/// The `PushNotice` JSON of a message's pushes, encoded once per send. A send's deliveries carry the same message
/// but for its recipient's id, so the notice is encoded once with a stand-in id and each delivery's id is written
/// over the stand-in's places: the bytes are those `MusterJSON.encoder()` gives for the delivery's own notice.
final class NoticeTemplates: Sendable {
    /// A message's notice with the stand-in id, and where the id stands in it.
    struct Template: Sendable {
        /// The message with the stand-in id, and whether the notice carries it whole.
        var key: Message
        var whole: Bool
        /// The encoded notice; nil when the stand-in was not found just where the id goes (then every notice
        /// of this message is encoded in full).
        var bytes: [UInt8]?
        /// Offsets of the id as the notice writes it (`UUID`'s upper case) and as the message writes it (lower).
        var upper: [Int]
        var lower: [Int]
    }

    /// How many templates are kept (the oldest goes first).
    static let kept = 8
    private let templates = Mutex<[Template]>([])

    /// The notice of kind `message` for `message`: the message whole in it when `whole`, else only its id, title
    /// and body.
    func notice(for message: Message, whole: Bool) throws -> [UInt8] {
        var key = message
        key.messageId = Self.zero
        let found = templates.withLock { templates in templates.first { $0.whole == whole && $0.key == key } }
        let template = try found ?? make(key, whole: whole)
        guard var bytes = template.bytes else { return try Self.encode(message, whole: whole) }
        let upper = Array(message.messageId.uuidString.utf8)
        let lower = Array(message.messageId.uuidString.lowercased().utf8)
        for offset in template.upper { bytes.replaceSubrange(offset..<offset + upper.count, with: upper) }
        for offset in template.lower { bytes.replaceSubrange(offset..<offset + lower.count, with: lower) }
        return bytes
    }

    /// Encodes the notice with a fresh random stand-in id and keeps it. The stand-in must appear exactly where
    /// the ids go — once in upper case, and once in lower case when the message is whole — or it is not used.
    private func make(_ key: Message, whole: Bool) throws -> Template {
        var standIn = key
        standIn.messageId = UUID()
        let bytes = try Self.encode(standIn, whole: whole)
        let upper = Self.offsets(of: Array(standIn.messageId.uuidString.utf8), in: bytes)
        let lower = Self.offsets(of: Array(standIn.messageId.uuidString.lowercased().utf8), in: bytes)
        let usable = upper.count == 1 && lower.count == (whole ? 1 : 0)
        let template = Template(key: key, whole: whole, bytes: usable ? bytes : nil, upper: upper, lower: lower)
        templates.withLock { templates in
            if templates.count >= Self.kept { templates.removeFirst() }
            templates.append(template)
        }
        return template
    }

    /// The notice as the delivery service encoded it for each push.
    static func encode(_ message: Message, whole: Bool) throws -> [UInt8] {
        let notice = PushNotice(
            kind: .message, messageId: message.messageId, title: message.title, body: message.body,
            message: whole ? message : nil)
        return Array(try MusterJSON.encoder().encode(notice))
    }

    /// Where `pattern` starts in `bytes`, every place.
    static func offsets(of pattern: [UInt8], in bytes: [UInt8]) -> [Int] {
        guard !pattern.isEmpty, bytes.count >= pattern.count else { return [] }
        var found: [Int] = []
        for start in 0...(bytes.count - pattern.count) where bytes[start] == pattern[0] {
            if bytes[start..<start + pattern.count].elementsEqual(pattern) { found.append(start) }
        }
        return found
    }

    private static let zero = UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0))
}
