import AsyncHTTPClient
import Foundation
import NIOCore
import NIOFoundationCompat
import NIOHTTP1

/// Sends pushes to Apple devices over APNs' HTTP/2 API (`POST /3/device/<token>`), authenticated by provider
/// token or TLS client certificate.
///
/// A device token that is not hex is answered `.unregistered(400, "BadDeviceToken")` without a request, as APNs
/// would answer it: such a token can never be delivered to.
public final class APNsProvider: PushProvider {
    private let configuration: APNsConfiguration
    private let options: ProviderConnectionOptions
    private let client: HTTPClient
    private let tokens: BearerTokenCache?

    /// - Parameters:
    ///   - now: The clock for provider tokens' `iat` and their renewal (tests move it on).
    public init(
        _ configuration: APNsConfiguration, options: ProviderConnectionOptions = .init(),
        now: @escaping @Sendable () -> Date = { Date() }
    ) async {
        self.configuration = configuration
        self.options = options
        switch configuration.authentication {
        case .token(let key, let keyId, let teamId):
            let signer = await APNsTokenSigner(key: key, keyId: keyId, teamId: teamId)
            tokens = BearerTokenCache(now: now) { try await signer.sign(at: now()) }
            client = ProviderHTTP.client(options)
        case .certificate(let identity):
            tokens = nil
            client = ProviderHTTP.client(options, identity: (identity.certificateChain, identity.privateKey))
        }
    }

    public func fits(_ push: Push) -> Bool {
        APNsPayload.body(for: push).count <= APNsPayload.limit
    }

    public func send(_ push: Push) async -> PushOutcome {
        guard !push.token.isEmpty, push.token.allSatisfy(\.isHexDigit) else {
            return .unregistered(status: 400, reason: "BadDeviceToken")
        }
        guard push.collapseId.utf8.count <= 64 else {
            return .rejected(status: nil, reason: "the collapse id is longer than the 64 bytes of apns-collapse-id")
        }
        guard APNsPayload.isObject(push.notice) else {
            return .rejected(status: nil, reason: "the notice is not a JSON object")
        }
        var request = HTTPClientRequest(url: "\(configuration.origin)/3/device/\(push.token)")
        request.method = .POST
        request.headers.add(name: "apns-topic", value: configuration.topic)
        // A background push must go at priority 5; APNs refuses 10 for it.
        request.headers.add(name: "apns-push-type", value: push.silent ? "background" : "alert")
        request.headers.add(name: "apns-priority", value: push.silent ? "5" : "10")
        // Unix seconds; a push already past its time says 0 (deliver now or never) rather than a negative time.
        let expiration = max(Int(push.expiresAt.timeIntervalSince1970.rounded(.down)), 0)
        request.headers.add(name: "apns-expiration", value: String(expiration))
        if !push.collapseId.isEmpty { request.headers.add(name: "apns-collapse-id", value: push.collapseId) }
        request.headers.add(name: "content-type", value: "application/json")
        var bearer: String?
        if let tokens {
            do {
                bearer = try await tokens.token()
            } catch {
                // Signing with a key that loaded cannot fail in practice; if it does, the key is at fault.
                return .rejected(status: nil, reason: "the provider token could not be signed: \(error)")
            }
            request.headers.add(name: "authorization", value: "bearer \(bearer!)")
        }
        request.body = .bytes(APNsPayload.body(for: push))

        return await ProviderHTTP.send(client, request, timeout: options.timeout) { answer in
            await outcome(status: answer.status, headers: answer.headers, body: answer.body, bearer: bearer)
        }
    }

    /// What APNs' answer means (Apple's "Handling notification responses from APNs").
    private func outcome(status: Int, headers: HTTPHeaders, body: ByteBuffer, bearer: String?) async -> PushOutcome {
        if status == 200 { return .delivered(providerId: headers.first(name: "apns-id")) }
        let reason = Self.reason(body) ?? "HTTP \(status)"
        switch (status, reason) {
        case (410, _), (400, "BadDeviceToken"), (400, "DeviceTokenNotForTopic"):
            return .unregistered(status: status, reason: reason)
        case (403, "ExpiredProviderToken"):
            // The token is signed again for the next attempt.
            if let bearer, let tokens { await tokens.drop(bearer) }
            return .retry(status: status, reason: reason, after: nil)
        case _ where ProviderHTTP.isTransient(status):
            return .retry(status: status, reason: reason, after: ProviderHTTP.retryAfter(headers))
        default:
            return .rejected(status: status, reason: reason)
        }
    }

    /// The `reason` of an APNs error body, `{"reason": "BadTopic"}`.
    private static func reason(_ body: ByteBuffer) -> String? {
        struct ErrorBody: Decodable { var reason: String }
        return try? JSONDecoder().decode(ErrorBody.self, from: body).reason
    }

    public func shutdown() async throws {
        try await client.shutdown()
    }
}
