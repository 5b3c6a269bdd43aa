import EventLog
import Foundation

/// `PayloadSent` schema 2 → 3: the sender's DialogMessage settings gain the input fields sent with `InstantSender`,
/// none for these. The settings are the body's last field; when a send has them, an empty list (a zero count) is
/// appended to the binary body; a send without them is unchanged but for its version.
struct PayloadSentInstantSender: Upcaster {
    var type: String { "PayloadSent" }
    var fromSchemaVersion: UInt16 { 2 }

    /// Schema 2's layout, to find whether the settings are there.
    private struct SchemaTwo: Decodable {
        struct Recipient: Decodable {
            var user: String
            var messageId: UUID
        }
        struct DialogSettings: Decodable {
            var switchToTab: String?
            var switchDelay: Int?
            var alertCode: Int?
            var flashDuration: Int?
        }
        var sender: String
        var title: String
        var body: String
        var source: String?
        var payload: [UInt8]
        var responseTopic: String
        var recipients: [Recipient]
        var mqtt: DialogSettings?
    }

    func upcast(_ event: RecordedEvent) -> RecordedEvent {
        var lifted = event
        lifted.schemaVersion = 3
        // A body that does not read as schema 2 is lifted as it is: reading it as schema 3 then fails, naming the
        // event's position.
        let bytes = event.body.bytes
        let sent = try? bytes.withUnsafeBytes { buffer in
            var reader = ByteReader(buffer)
            return try BinaryCoding.decode(SchemaTwo.self, from: &reader)
        }
        if event.body.format == .binary, let sent, sent.mqtt != nil {
            lifted.body = EventBody(format: event.body.format, bytes: bytes + [0])
        }
        return lifted
    }
}
