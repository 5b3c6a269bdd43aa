import EventLog

/// `PushTargetUnregistered` schema 1 (0.1.0: user, device id) → 2 (adds the provider's reason, none for these):
/// an empty string, which reads as no reason, appended to the binary body.
struct PushTargetUnregisteredReason: Upcaster {
    var type: String { "PushTargetUnregistered" }
    var fromSchemaVersion: UInt16 { 1 }

    func upcast(_ event: RecordedEvent) -> RecordedEvent {
        var lifted = event
        lifted.schemaVersion = 2
        lifted.body = EventBody(format: event.body.format, bytes: event.body.bytes + [0])
        return lifted
    }
}
