import EventLog

/// The upcasters and store-format migrations of this release.
public enum Migrations {
    /// Upcasters applied on every read.
    public static let upcasters = UpcasterRegistry([
        PushTargetUnregisteredReason(), PushTargetRegisteredPublishTopic(), PayloadSentMQTTSettings(),
        PayloadSentInstantSender(),
        AreaKindAdded(type: "AreaTransition"), AreaKindAdded(type: "RuleEvaluated"), AreaKindAdded(type: "AreaRemoved"),
    ])
    /// Store-format migrations, in order; format 1 is the first release's, and the store's own come first.
    public static let storeMigrations: [any StoreMigration] = EventLog.builtInMigrations
}
