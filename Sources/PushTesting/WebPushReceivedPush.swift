import PushProviders

/// One push the local Web Push endpoint took: whom it was for, what it said once decrypted, how it was sent.
public struct WebPushReceivedPush: Sendable, Hashable {
    /// The subscription's id (the last segment of its endpoint).
    public var subscription: String
    /// The decrypted plaintext.
    public var plaintext: [UInt8]
    /// The `TTL` header.
    public var ttl: Int?
    /// The `Topic` header.
    public var topic: String?
    /// The `Urgency` header.
    public var urgency: String?
    /// The verified VAPID token's claims.
    public var vapid: VAPIDClaims
    /// The `Location` answered: `/receipts/<uuid>`.
    public var location: String
}
