import EventLog

/// `AreaTransition`, `RuleEvaluated` and `AreaRemoved` schema 1 (0.1.0, an area named by its id alone) → 2 (adds
/// the area's kind, last): an empty string, which reads as "the one area of that id" — in 0.1.0 a geofence and a
/// beacon region could not share an id.
struct AreaKindAdded: Upcaster {
    let type: String
    var fromSchemaVersion: UInt16 { 1 }

    func upcast(_ event: RecordedEvent) -> RecordedEvent {
        var lifted = event
        lifted.schemaVersion = 2
        lifted.body = EventBody(format: event.body.format, bytes: event.body.bytes + [0])
        return lifted
    }
}
