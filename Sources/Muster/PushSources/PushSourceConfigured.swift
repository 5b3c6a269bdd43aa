import EventLog
import MusterWire

/// A push source (the seed's PUSH_NOTIF source) was configured in a namespace: how pushes reach one platform's
/// devices. Configuring a name again replaces it.
///
/// Only what may be shown is recorded: the kind, public settings and the SHA-256 fingerprint of the secret. The
/// secret itself (a signing key, a certificate's password, a service account) is in the data directory's secret
/// store, never in the log.
public struct PushSourceConfigured: DomainEvent, Hashable, Codable {
    public static let type = "PushSourceConfigured"
    public static let schemaVersion: UInt16 = 1

    /// The provider a source speaks to: the wire's kind (`apns`, `fcm`, `webpush`).
    public typealias Kind = PushSource.Kind

    /// One public setting, e.g. `keyId`, `teamId`, `topic`, `sandbox`, `projectId`, `clientEmail`, `subject`,
    /// `publicKey`, `authentication`.
    public struct Detail: Sendable, Hashable, Codable {
        public var name: String
        public var value: String

        public init(_ name: String, _ value: String) {
            self.name = name
            self.value = value
        }
    }

    public var name: String
    public var kind: Kind
    public var details: [Detail]
    /// The provider's address when not its public one (`--endpoint`, a local server in tests).
    public var endpoint: String?
    /// SHA-256 of the secret, 64 hex digits: the name of its file in the secret store.
    public var fingerprint: String

    /// The value of a detail; nil when the source has none of that name.
    public func detail(_ name: String) -> String? { details.first { $0.name == name }?.value }
}

/// A push source was removed: nothing more is sent through it, and its secret is erased.
public struct PushSourceRemoved: DomainEvent, Hashable, Codable {
    public static let type = "PushSourceRemoved"
    public static let schemaVersion: UInt16 = 1

    public var name: String
}

extension PushSource.Kind {
    /// The platform of the devices it reaches.
    public var platform: PushTarget.Platform {
        switch self {
        case .apns: .apns
        case .fcm: .fcm
        case .webpush: .web
        }
    }
}
