/// A push source of a namespace as listed: its kind, public settings and the fingerprint of its secret — never
/// the secret.
public struct PushSource: Sendable, Hashable, Codable {
    /// The provider a source speaks to.
    public enum Kind: String, Sendable, Hashable, Codable, CaseIterable {
        /// Apple Push Notification service, by provider token (.p8) or TLS client certificate (.p12).
        case apns
        /// Firebase Cloud Messaging HTTP v1, by service account.
        case fcm
        /// Web Push (RFC 8030) to browsers, signed with the source's VAPID key.
        case webpush
    }

    public var name: String
    public var kind: Kind
    /// Public settings: `authentication`, `keyId`, `teamId`, `topic`, `sandbox`, `projectId`, `clientEmail`,
    /// `subject`, `publicKey` (the VAPID application server key), as the kind has them.
    public var details: [String: String]
    /// The provider's address when not its public one.
    public var endpoint: String?
    /// SHA-256 of the secret, 64 hex digits.
    public var fingerprint: String

    /// Creates a source description from its parts.
    public init(name: String, kind: Kind, details: [String: String], endpoint: String?, fingerprint: String) {
        self.name = name
        self.kind = kind
        self.details = details
        self.endpoint = endpoint
        self.fingerprint = fingerprint
    }
}
