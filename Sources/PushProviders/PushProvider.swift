import Foundation

/// One push to one device, as the delivery service hands it to a provider.
public struct Push: Sendable, Hashable {
    /// The device's token as registered: an APNs device token (hex), an FCM registration token, or a Web Push
    /// subscription as `PushSubscription.toJSON()` gives it.
    public var token: String
    /// The visible alert's title and body.
    public var title: String
    public var body: String
    /// The JSON text of what the app reads under the key `muster` (MusterWire's `PushNotice`): beside `aps` in
    /// an APNs payload, as a string in FCM's `data`, as a member of the Web Push plaintext.
    public var notice: [UInt8]
    /// The same for every attempt of one delivery, so the platform folds a copy sent again after a crash:
    /// `apns-collapse-id`, the FCM `collapse_key`, the Web Push `Topic` (at most 32 URL-safe characters).
    public var collapseId: String
    /// When the provider should stop trying: `apns-expiration`, FCM's `ttl`, Web Push's `TTL`.
    public var expiresAt: Date
    /// No alert: the app is woken in the background to act on the notice (a location request). APNs gets a
    /// `background` push with `content-available`, FCM a data-only message; title and body are not sent.
    public var silent: Bool
    /// An alert without a sound: one that takes the place of an alert the device shows (a withdrawal), by
    /// `collapseId` (APNs and, through FCM, Apple devices), the Android notification's `tag`, or the Web Push
    /// notification's tag that the web app's service worker sets from the notice.
    public var quiet: Bool

    public init(
        token: String, title: String, body: String, notice: [UInt8], collapseId: String, expiresAt: Date,
        silent: Bool = false, quiet: Bool = false
    ) {
        self.silent = silent
        self.quiet = quiet
        self.token = token
        self.title = title
        self.body = body
        self.notice = notice
        self.collapseId = collapseId
        self.expiresAt = expiresAt
    }
}

/// What became of one attempt.
public enum PushOutcome: Sendable, Hashable {
    /// The provider took it; its id for the push when it gives one (`apns-id`, the FCM message name, the Web
    /// Push `Location`).
    case delivered(providerId: String?)
    /// Try again later: 429, 5xx, a timeout, a refused or broken connection, a token endpoint that failed.
    /// `after` is the provider's `Retry-After` when it sent one.
    case retry(status: Int?, reason: String, after: Duration?)
    /// The device is gone (APNs 410 Unregistered or 400 BadDeviceToken, FCM UNREGISTERED or a token it calls
    /// invalid, Web Push 404/410): stop sending to it.
    case unregistered(status: Int, reason: String)
    /// The provider refused this push and will refuse it again (bad topic, payload too large, bad credentials):
    /// no retry; the device stays.
    case rejected(status: Int?, reason: String)
}

/// A configured push source: sends pushes to one platform's devices with one set of credentials, over one pool
/// of connections.
public protocol PushProvider: Sendable {
    /// Whether `push` fits the platform's size limit once wrapped as this provider sends it (APNs 4 KB payload,
    /// FCM 4 KB of data, one Web Push record of 4 KB); a push that does not fit is sent indirectly.
    func fits(_ push: Push) -> Bool
    /// Sends one push and says what became of it; never throws: every failure is an outcome.
    func send(_ push: Push) async -> PushOutcome
    /// Closes the connections; call once, after the last `send` returned.
    func shutdown() async throws
}

/// A credential or setting that cannot be used, naming the argument it came from and what was expected.
public struct PushConfigurationError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The command-line argument or JSON field at fault, e.g. `--key-file` or `subscription.keys.p256dh`.
    public var argument: String
    public var message: String

    public init(_ argument: String, _ message: String) {
        self.argument = argument
        self.message = message
    }

    public var description: String { "\(argument): \(message)" }
}
