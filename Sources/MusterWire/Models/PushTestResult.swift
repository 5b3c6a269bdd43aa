/// What one device's provider answered to a test push (`muster push-sources test`,
/// `POST /api/v1/push/sources/{name}/test`).
public struct PushTestResult: Sendable, Hashable, Codable {
    public var deviceId: String
    /// `delivered`, `retry`, `unregistered` or `rejected`.
    public var outcome: String
    /// The provider's HTTP status, when it failed.
    public var status: Int?
    /// The provider's id for the push (delivered), or its reason (otherwise).
    public var detail: String?

    /// Creates a result from its parts.
    public init(deviceId: String, outcome: String, status: Int?, detail: String?) {
        self.deviceId = deviceId
        self.outcome = outcome
        self.status = status
        self.detail = detail
    }
}

/// `POST /api/v1/push/sources/{name}/test`: whose devices get the test push.
public struct PushTestBody: Sendable, Hashable, Codable {
    public var user: String

    /// Creates a body naming the user.
    public init(user: String) { self.user = user }
}

/// `GET /api/v1/push/vapid-public-key`: the Web Push source's application server key, for
/// `PushManager.subscribe({applicationServerKey})`.
public struct VAPIDPublicKey: Sendable, Hashable, Codable {
    /// The Web Push source it belongs to.
    public var source: String
    /// The uncompressed P-256 public key, base64url without padding.
    public var publicKey: String

    /// Creates the answer from its parts.
    public init(source: String, publicKey: String) {
        self.source = source
        self.publicKey = publicKey
    }
}
