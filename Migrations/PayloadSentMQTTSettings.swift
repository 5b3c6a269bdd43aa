import EventLog

/// `PayloadSent` schema 1 (sender, title, body, source, payload, response topic, recipients) → 2 (adds the sender's
/// DialogMessage settings for MQTT devices, none for these): an absent optional's presence byte, appended to the
/// binary body.
struct PayloadSentMQTTSettings: Upcaster {
    var type: String { "PayloadSent" }
    var fromSchemaVersion: UInt16 { 1 }

    func upcast(_ event: RecordedEvent) -> RecordedEvent {
        var lifted = event
        lifted.schemaVersion = 2
        lifted.body = EventBody(format: event.body.format, bytes: event.body.bytes + [0])
        return lifted
    }
}
