import EventLog

/// What the domain adds to an event log: its projections.
public enum MusterDomain {
    /// The domain's projections, to add to `EventLog.Configuration.projections`.
    public static let projections: [any Projection] = [
        DirectoryProjection(), InboxProjection(), NamedPayloadProjection(), RequestProjection(),
        DocumentsProjection(), SettingsProjection(), SessionsProjection(), AreasProjection(), RulesProjection(),
        GeotriggersProjection(), DeviceOwnersProjection(), PushSourcesProjection(), OutboxProjection(),
        MQTTDevicesProjection(), NoticesProjection(),
    ]
}
