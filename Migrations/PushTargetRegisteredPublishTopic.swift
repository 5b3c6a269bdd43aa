import EventLog

/// `PushTargetRegistered` schema 1 (0.1.0: user, device id, name, platform, token) → 2 (adds an MQTT device's
/// publish topic, none for these): an empty string, which reads as no topic, appended to the binary body.
struct PushTargetRegisteredPublishTopic: Upcaster {
    var type: String { "PushTargetRegistered" }
    var fromSchemaVersion: UInt16 { 1 }

    func upcast(_ event: RecordedEvent) -> RecordedEvent {
        var lifted = event
        lifted.schemaVersion = 2
        lifted.body = EventBody(format: event.body.format, bytes: event.body.bytes + [0])
        return lifted
    }
}
