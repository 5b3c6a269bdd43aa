import AsyncHTTPClient
import Crypto
import Foundation
import NIOCore
import NIOHTTP1

/// Sends pushes to browsers' push services (RFC 8030): each push's token is a subscription, its plaintext
/// `{"title": …, "body": …, "muster": …}` encrypted for it (RFC 8291), the request signed with the server's VAPID
/// key (RFC 8292).
public final class WebPushProvider: PushProvider {
    /// The VAPID key and contact every request is signed with.
    public let signer: VAPIDSigner
    private let client: HTTPClient
    private let timeout: Duration

    /// A provider signing with `key` for the contact `subject` (a `mailto:` address or an `https:` URL; the error
    /// names `--subject`), connecting as `options` says.
    public init(key: VAPIDKey, subject: String, options: ProviderConnectionOptions = .init())
        throws(PushConfigurationError)
    {
        signer = try VAPIDSigner(key: key, subject: subject)
        timeout = options.timeout
        client = ProviderHTTP.client(options)
    }

    public func fits(_ push: Push) -> Bool { Self.plaintext(of: push).count <= WebPushEncryption.maximumPlaintext }

    public func send(_ push: Push) async -> PushOutcome {
        let subscription: WebPushSubscription
        do {
            subscription = try WebPushSubscription(json: push.token)
        } catch {
            return .rejected(status: nil, reason: "the token is not a Web Push subscription: \(error)")
        }
        let body: [UInt8]
        let authorization: String
        do {
            body = try WebPushEncryption.encrypt(Self.plaintext(of: push), to: subscription)
            authorization = try await signer.authorization(for: subscription.endpoint)
        } catch {
            return .rejected(status: nil, reason: "\(error)")
        }
        var request = HTTPClientRequest(url: subscription.endpoint.absoluteString)
        request.method = .POST
        request.headers.add(name: "Authorization", value: authorization)
        request.headers.add(name: "Content-Encoding", value: "aes128gcm")
        request.headers.add(name: "Content-Type", value: "application/octet-stream")
        request.headers.add(name: "TTL", value: String(Self.ttl(until: push.expiresAt)))
        if let topic = Self.topic(push.collapseId) { request.headers.add(name: "Topic", value: topic) }
        request.headers.add(name: "Urgency", value: "high")
        request.body = .bytes(ByteBuffer(bytes: body))
        return await ProviderHTTP.send(client, request, timeout: timeout) { answer in
            Self.outcome(status: answer.status, headers: answer.headers, body: String(buffer: answer.body))
        }
    }

    public func shutdown() async throws { try await client.shutdown() }

    /// What a push service's answer means: 200–202 taken (its `Location` is the push's id), 404 and 410 the
    /// subscription gone, 429 and 5xx later, anything else refused (400 malformed, 401/403 VAPID, 413 too large).
    static func outcome(status: Int, headers: HTTPHeaders, body: String) -> PushOutcome {
        let reason = summary(body, status: status)
        switch status {
        case 200...299: return .delivered(providerId: headers.first(name: "location"))
        case 404, 410: return .unregistered(status: status, reason: reason)
        case _ where ProviderHTTP.isTransient(status):
            return .retry(status: status, reason: reason, after: ProviderHTTP.retryAfter(headers))
        default: return .rejected(status: status, reason: reason)
        }
    }

    /// The plaintext of a push: `{"title":…,"body":…,"muster":<notice>}`, the notice's JSON text as it is.
    static func plaintext(of push: Push) -> [UInt8] {
        var text = Array(#"{"title":"#.utf8)
        text += jsonString(push.title)
        text += Array(#","body":"#.utf8)
        text += jsonString(push.body)
        text += Array(#","muster":"#.utf8)
        text += push.notice.isEmpty ? Array("null".utf8) : push.notice
        text.append(UInt8(ascii: "}"))
        return text
    }

    /// The `TTL` header: whole seconds from now until `expiresAt`, 0 when past.
    static func ttl(until expiresAt: Date, now: Date = Date()) -> Int {
        max(0, Int(expiresAt.timeIntervalSince(now).rounded(.down)))
    }

    /// The `Topic` header for a collapse id: the id itself when it is at most 32 characters of the URL-safe base64
    /// alphabet (RFC 8030 §5.4), otherwise base64url of the first 24 bytes of its SHA-256 (32 characters); nil
    /// for an empty id.
    static func topic(_ collapseId: String) -> String? {
        if collapseId.isEmpty { return nil }
        let allowed = collapseId.utf8.allSatisfy { byte in
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "_"):
                true
            default: false
            }
        }
        if allowed && collapseId.utf8.count <= 32 { return collapseId }
        return WebPushBase64URL.encode(SHA256.hash(data: Array(collapseId.utf8)).prefix(24))
    }

    /// A JSON string literal for `text`, as `JSONEncoder` (slashes not escaped) writes it. Printable ASCII other
    /// than `"` and `\` is written as it is without one.
    static func jsonString(_ text: String) -> [UInt8] {
        let plain = text.utf8.allSatisfy { byte in
            byte >= 0x20 && byte < 0x7F && byte != UInt8(ascii: "\"") && byte != UInt8(ascii: "\\")
        }
        if plain { return [UInt8(ascii: "\"")] + Array(text.utf8) + [UInt8(ascii: "\"")] }
        let encoder = JSONEncoder()
        encoder.outputFormatting = .withoutEscapingSlashes
        // A String always encodes.
        return [UInt8](try! encoder.encode(text))
    }

    /// The answer's text, trimmed and cut to 200 characters; the status when there is none.
    private static func summary(_ body: String, status: Int) -> String {
        let trimmed = body.trimmingCharacters(in: .whitespacesAndNewlines)
        if trimmed.isEmpty { return "HTTP \(status)" }
        return trimmed.count > 200 ? String(trimmed.prefix(200)) : trimmed
    }
}
