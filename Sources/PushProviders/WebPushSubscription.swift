import Crypto
import Foundation
import MusterWire

/// A browser's Web Push subscription as `PushSubscription.toJSON()` gives it: where to post (the push service's
/// endpoint) and the two secrets a message is encrypted for (RFC 8291).
///
/// ```json
/// {"endpoint": "https://push.example/…", "expirationTime": null, "keys": {"p256dh": "BN…", "auth": "…"}}
/// ```
public struct WebPushSubscription: Sendable {
    /// The push service's URL for this subscription: `https:`, or `http:` on a loopback host (local tests).
    public var endpoint: URL
    /// When the browser said the subscription ends, if it did.
    public var expirationTime: Date?
    /// The user agent's P-256 key agreement key (`keys.p256dh`).
    public var p256dh: P256.KeyAgreement.PublicKey
    /// The 16-byte authentication secret (`keys.auth`).
    public var auth: [UInt8]

    /// A subscription from its parts; `auth` must be 16 bytes and the endpoint as `init(json:)` requires.
    public init(
        endpoint: URL, p256dh: P256.KeyAgreement.PublicKey, auth: [UInt8], expirationTime: Date? = nil
    ) throws(PushConfigurationError) {
        try Self.check(endpoint: endpoint)
        guard auth.count == 16 else {
            throw PushConfigurationError("token.keys.auth", "expected 16 bytes, got \(auth.count)")
        }
        self.endpoint = endpoint
        self.p256dh = p256dh
        self.auth = auth
        self.expirationTime = expirationTime
    }

    /// Parses and checks the JSON of `PushSubscription.toJSON()`; the error names the field at fault (`token`,
    /// `token.endpoint`, `token.keys.p256dh`, `token.keys.auth`…) and what was expected.
    public init(json: String) throws(PushConfigurationError) {
        guard let value = try? JSONValue(json: Array(json.utf8)) else {
            throw PushConfigurationError("token", "expected a subscription's JSON (PushSubscription.toJSON())")
        }
        let token = try Self.object(value, at: "token")
        let keys = try Self.object(Self.member("keys", of: token, at: "token"), at: "token.keys")
        let shape = Shape(
            endpoint: try Self.string(Self.member("endpoint", of: token, at: "token"), at: "token.endpoint"),
            expirationTime: try Self.time(token["expirationTime"]),
            keys: .init(
                p256dh: try Self.string(Self.member("p256dh", of: keys, at: "token.keys"), at: "token.keys.p256dh"),
                auth: try Self.string(Self.member("auth", of: keys, at: "token.keys"), at: "token.keys.auth")))
        guard let endpoint = URL(string: shape.endpoint) else {
            throw PushConfigurationError("token.endpoint", "expected a URL, got \(Self.quoted(shape.endpoint))")
        }
        try Self.check(endpoint: endpoint)
        guard let point = WebPushBase64URL.decode(shape.keys.p256dh) else {
            throw PushConfigurationError("token.keys.p256dh", "expected base64url")
        }
        guard point.count == 65, point.first == 0x04 else {
            throw PushConfigurationError(
                "token.keys.p256dh",
                "expected an uncompressed P-256 point (65 bytes from 0x04), got \(point.count) bytes")
        }
        let key: P256.KeyAgreement.PublicKey
        do {
            key = try P256.KeyAgreement.PublicKey(x963Representation: point)
        } catch {
            throw PushConfigurationError("token.keys.p256dh", "expected a point on the P-256 curve")
        }
        guard let auth = WebPushBase64URL.decode(shape.keys.auth) else {
            throw PushConfigurationError("token.keys.auth", "expected base64url")
        }
        try self.init(
            endpoint: endpoint, p256dh: key, auth: auth,
            expirationTime: shape.expirationTime.map { Date(timeIntervalSince1970: $0 / 1000) })
    }

    /// The subscription as `PushSubscription.toJSON()` gives it (what a browser registers as its token).
    public var json: String {
        let shape = Shape(
            endpoint: endpoint.absoluteString, expirationTime: expirationTime.map { $0.timeIntervalSince1970 * 1000 },
            keys: .init(p256dh: WebPushBase64URL.encode(p256dh.x963Representation), auth: WebPushBase64URL.encode(auth))
        )
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        // Strings and numbers only: encoding cannot fail.
        return String(decoding: try! encoder.encode(shape), as: UTF8.self)
    }

    /// `https:`, or `http:` when the host is a loopback address (127.0.0.0/8, ::1, localhost).
    static func check(endpoint: URL) throws(PushConfigurationError) {
        let scheme = endpoint.scheme?.lowercased()
        guard let host = endpoint.host, !host.isEmpty, scheme == "https" || scheme == "http" else {
            throw PushConfigurationError(
                "token.endpoint", "expected an https: URL, got \(Self.quoted(endpoint.absoluteString))")
        }
        if scheme == "http" && !isLoopback(host) {
            throw PushConfigurationError(
                "token.endpoint",
                "expected an https: URL (http: only on a loopback host), got \(Self.quoted(endpoint.absoluteString))")
        }
    }

    /// Whether `host` (as `URL.host` gives it, brackets or not) names this machine.
    static func isLoopback(_ host: String) -> Bool {
        var name = host.lowercased()
        if name.hasPrefix("[") && name.hasSuffix("]") { name = String(name.dropFirst().dropLast()) }
        if name == "localhost" || name == "::1" || name == "0:0:0:0:0:0:0:1" { return true }
        let parts = name.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 4, parts.allSatisfy({ UInt8($0) != nil }) else { return false }
        return parts[0] == "127"
    }

    private struct Shape: Codable {
        struct Keys: Codable {
            var p256dh: String
            var auth: String
        }
        var endpoint: String
        var expirationTime: Double?
        var keys: Keys

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(endpoint, forKey: .endpoint)
            try container.encode(expirationTime, forKey: .expirationTime)
            try container.encode(keys, forKey: .keys)
        }
    }

    // Parsed by MusterWire's scanner rather than JSONDecoder: a fan-out parses one subscription per push.

    private static func member(_ key: String, of object: [String: JSONValue], at path: String)
        throws(PushConfigurationError) -> JSONValue
    {
        guard let value = object[key] else { throw PushConfigurationError("\(path).\(key)", "missing") }
        return value
    }

    private static func object(_ value: JSONValue, at path: String) throws(PushConfigurationError) -> [String:
        JSONValue]
    {
        if let object = value.objectValue { return object }
        throw PushConfigurationError(path, value == .null ? "expected an object, got null" : "expected an object")
    }

    private static func string(_ value: JSONValue, at path: String) throws(PushConfigurationError) -> String {
        if let text = value.stringValue { return text }
        throw PushConfigurationError(path, value == .null ? "expected a string, got null" : "expected a string")
    }

    /// `expirationTime`: absent, null or a number (milliseconds since 1970).
    private static func time(_ value: JSONValue?) throws(PushConfigurationError) -> Double? {
        guard let value, value != .null else { return nil }
        if let number = value.doubleValue { return number }
        throw PushConfigurationError("token.expirationTime", "expected a number or null")
    }

    private static func quoted(_ text: String) -> String {
        "\"\(text.count > 100 ? text.prefix(100) + "…" : text)\""
    }
}
