/// `POST /api/v1/push/sources`: configures (or reconfigures) a push source. Which members apply depends on
/// `kind`; the secret members (`key`, `certificate`, `password`, `serviceAccount`) are kept out of the event log.
public struct PushSourceBody: Sendable, Hashable, Codable {
    public var name: String
    public var kind: PushSource.Kind
    /// The provider's address when not its public one, e.g. `https://127.0.0.1:8443` (tests, proxies).
    public var endpoint: String?

    // APNs
    /// The bundle id the pushes are for (`apns-topic`).
    public var topic: String?
    /// The sandbox (development) service instead of production.
    public var sandbox: Bool?
    /// Token authentication: the .p8 key's PEM text, its 10-character key id and the team id.
    public var key: String?
    public var keyId: String?
    public var teamId: String?
    /// Certificate authentication: the PKCS#12 file, base64, and its password.
    public var certificate: String?
    public var password: String?

    // FCM
    /// The Google service-account JSON file's text.
    public var serviceAccount: String?

    // Web Push
    /// The VAPID subject: `mailto:` address or `https:` URL of whoever runs the server.
    public var subject: String?

    /// Creates a body; set the members the kind needs.
    public init(
        name: String, kind: PushSource.Kind, endpoint: String? = nil, topic: String? = nil, sandbox: Bool? = nil,
        key: String? = nil, keyId: String? = nil, teamId: String? = nil, certificate: String? = nil,
        password: String? = nil, serviceAccount: String? = nil, subject: String? = nil
    ) {
        self.name = name
        self.kind = kind
        self.endpoint = endpoint
        self.topic = topic
        self.sandbox = sandbox
        self.key = key
        self.keyId = keyId
        self.teamId = teamId
        self.certificate = certificate
        self.password = password
        self.serviceAccount = serviceAccount
        self.subject = subject
    }
}
