import EventLog
import Foundation

/// Every domain event type this release knows, for rendering stored bodies as JSON.
public enum EventCatalogue {
    static let all: [any DomainEvent.Type] = [
        UserCreated.self, GroupDefined.self, PushTargetRegistered.self, PushTargetUnregistered.self, PayloadSent.self,
        ResponseReceived.self, NamedPayloadStored.self, RequestTemplateStored.self, DocumentUploaded.self,
        SettingChanged.self, TopicPublished.self, TokenIssued.self, TokenRevoked.self, LoginFailed.self,
        AreaDefined.self, AreaRemoved.self,
        AreaCountsChanged.self,
        LocationReported.self, BeaconSighted.self, AreaTransition.self, RuleEvaluated.self,
        GeotriggerDefined.self, GeotriggerRemoved.self, GeotriggerNotified.self,
        GeotriggerMonitorStarted.self, GeotriggerMonitorStopped.self,
        PushSourceConfigured.self, PushSourceRemoved.self, PushDelivered.self, PushFailed.self, PushExpired.self,
        LocationRequested.self, DeviceDataReported.self,
        AreaNotificationHanded.self, AreaNotificationPerformed.self, AreaNotificationDismissed.self,
        DeviceTraceLoggingSet.self,
    ]

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
