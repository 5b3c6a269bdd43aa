import EventLog
import Foundation

/// Every domain event type this release knows, for rendering stored bodies as JSON.
public enum EventCatalogue {
    static let all: [any DomainEvent.Type] = [
        UserCreated.self, PasswordChanged.self, UserChanged.self, UserRemoved.self, GroupDefined.self,
        GroupRemoved.self,
        PushTargetRegistered.self,
        PushTargetUnregistered.self, PayloadSent.self,
        ResponseReceived.self, MessageWithdrawn.self, NamedPayloadStored.self, NamedPayloadRemoved.self,
        RequestTemplateStored.self,
        RequestTemplateRemoved.self, DocumentUploaded.self, DocumentRemoved.self,
        SettingChanged.self, SettingReset.self, TopicPublished.self, TokenIssued.self, TokenRevoked.self,
        LoginFailed.self,
        AreaDefined.self, AreaRemoved.self,
        AreaCountsChanged.self,
        LocationReported.self, BeaconSighted.self, AreaTransition.self, RuleEvaluated.self,
        GeotriggerDefined.self, GeotriggerRemoved.self, GeotriggerNotified.self,
        GeotriggerMonitorStarted.self, GeotriggerMonitorStopped.self,
        PushSourceConfigured.self, PushSourceRemoved.self, PushDelivered.self, PushFailed.self, PushExpired.self,
        LocationRequested.self, DeviceDataReported.self, ReplyRefused.self,
        AreaNotificationHanded.self, AreaNotificationPerformed.self, AreaNotificationDismissed.self,
        DeviceTraceLoggingSet.self,
    ]

    /// Why an event of `type` may not be appended as JSON from outside (`muster append`, `muster import`): nil for
    /// types that are not Muster's own. Muster's own events are recorded by its commands and routes, which check
    /// what the log may hold, and are stored in their binary layout; `muster events --json` shows their bodies
    /// without secrets (a password hash as `hasPassword`), so they cannot be read back.
    public static func refusal(ofType type: String) -> String? {
        guard all.contains(where: { $0.type == type }) else { return nil }
        return "\(type) is one of Muster's own event types: they are recorded by its commands and routes, not "
            + "appended as JSON; to copy a data directory use muster backup and muster restore"
    }

    /// The body of a domain event as JSON (sorted keys), or nil when the type is not Muster's.
    public static func json(_ event: RecordedEvent) -> Data? {
        guard let type = all.first(where: { $0.type == event.type }) else { return nil }
        return try? render(type, event)
    }

    private static func render<E: DomainEvent>(_ type: E.Type, _ event: RecordedEvent) throws -> Data? {
        guard let decoded = try E.decode(event) else { return nil }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(decoded)
    }
}
