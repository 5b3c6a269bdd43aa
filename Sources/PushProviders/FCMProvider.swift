import AsyncHTTPClient
import Foundation
import NIOCore
import NIOFoundationCompat
import NIOHTTP1

/// An FCM push source: the service account that sends, and the FCM it sends through.
public struct FCMConfiguration: Sendable {
    public var serviceAccount: ServiceAccount
    /// Another server in place of `https://fcm.googleapis.com`, as `scheme://host:port` (a local stand-in).
    public var endpoint: URL?

    public init(serviceAccount: ServiceAccount, endpoint: URL? = nil) {
        self.serviceAccount = serviceAccount
        self.endpoint = endpoint
    }

    /// The `messages:send` URL of the service account's project.
    var sendURL: String {
        var origin = endpoint?.absoluteString ?? "https://fcm.googleapis.com"
        while origin.hasSuffix("/") { origin.removeLast() }
        return "\(origin)/v1/projects/\(serviceAccount.projectId)/messages:send"
    }
}

/// Sends pushes to Android (and, through Firebase, Apple) devices with FCM's HTTP v1 API.
///
/// Access tokens come from the service account's token endpoint, are kept until five minutes before they expire,
/// and are fetched one at a time: sends that need a token while a fetch runs wait for it.
public final class FCMProvider: PushProvider {
    private let configuration: FCMConfiguration
    private let options: ProviderConnectionOptions
    private let client: HTTPClient
    private let tokens: BearerTokenCache
    private let now: @Sendable () -> Date

    /// - Parameters:
    ///   - now: The clock for assertions, token expiry and the messages' `ttl` (tests move it on).
    public init(
        _ configuration: FCMConfiguration, options: ProviderConnectionOptions = .init(),
        now: @escaping @Sendable () -> Date = { Date() }
    ) async {
        self.configuration = configuration
        self.options = options
        self.now = now
        let client = ProviderHTTP.client(options)
        let exchange = await FCMTokenExchange(
            account: configuration.serviceAccount, client: client, timeout: options.timeout)
        self.client = client
        tokens = BearerTokenCache(now: now) { try await exchange.fetch(now: now()) }
    }

    public func fits(_ push: Push) -> Bool {
        FCMMessageBody.countedSize(of: push) <= FCMMessageBody.limit
    }

    public func send(_ push: Push) async -> PushOutcome {
        let bearer: String
        do {
            bearer = try await tokens.token()
        } catch let failure as FCMTokenEndpointFailure {
            return .retry(status: nil, reason: "token endpoint: \(failure.reason)", after: nil)
        } catch {
            return .retry(status: nil, reason: "token endpoint: failed", after: nil)
        }
        var request = HTTPClientRequest(url: configuration.sendURL)
        request.method = .POST
        request.headers.add(name: "authorization", value: "Bearer \(bearer)")
        request.headers.add(name: "content-type", value: "application/json; charset=UTF-8")
        request.body = .bytes(FCMMessageBody(push, now: now()).encoded())

        return await ProviderHTTP.send(client, request, timeout: options.timeout) { answer in
            await outcome(answer, bearer: bearer)
        }
    }

    /// What FCM's answer means (the v1 API's `ErrorCode`s).
    private func outcome(_ answer: ProviderHTTP.Answer, bearer: String) async -> PushOutcome {
        let (status, body) = (answer.status, answer.body)
        if (200...299).contains(status) {
            struct Sent: Decodable { var name: String }
            return .delivered(providerId: try? JSONDecoder().decode(Sent.self, from: body).name)
        }
        let error = FCMError(body)
        if status == 401 {
            // The access token is no longer good: the next send fetches another.
            await tokens.drop(bearer)
            return .retry(status: status, reason: error.reason(status), after: nil)
        }
        if error.isUnregistered(status) { return .unregistered(status: status, reason: error.reason(status)) }
        if ProviderHTTP.isTransient(status) {
            return .retry(
                status: status, reason: error.reason(status), after: ProviderHTTP.retryAfter(answer.headers))
        }
        return .rejected(status: status, reason: error.reason(status))
    }

    public func shutdown() async throws {
        try await client.shutdown()
    }
}

/// FCM's error body: `{"error": {"code", "message", "status", "details": [{"errorCode", "fieldViolations"}]}}`.
struct FCMError {
    var status: String?
    var message: String?
    var errorCodes: [String] = []
    var fields: [String] = []

    init(_ body: ByteBuffer) {
        struct Body: Decodable {
            struct Inner: Decodable {
                var message: String?
                var status: String?
                var details: [Detail]?
            }
            struct Detail: Decodable {
                struct Violation: Decodable { var field: String? }
                var errorCode: String?
                var fieldViolations: [Violation]?
            }
            var error: Inner
        }
        guard let error = try? JSONDecoder().decode(Body.self, from: body).error else { return }
        status = error.status
        message = error.message
        errorCodes = (error.details ?? []).compactMap(\.errorCode)
        fields = (error.details ?? []).flatMap { ($0.fieldViolations ?? []).compactMap(\.field) }
    }

    /// The device's registration token is gone (UNREGISTERED) or one FCM calls invalid.
    func isUnregistered(_ httpStatus: Int) -> Bool {
        if status == "UNREGISTERED" || errorCodes.contains("UNREGISTERED") { return true }
        guard httpStatus == 400, status == "INVALID_ARGUMENT" || errorCodes.contains("INVALID_ARGUMENT") else {
            return false
        }
        return fields.contains("message.token") || message?.lowercased().contains("registration token") == true
    }

    /// `UNREGISTERED: Requested entity was not found.`; the HTTP status when the body says nothing.
    func reason(_ httpStatus: Int) -> String {
        let code = errorCodes.first ?? status
        switch (code, message) {
        case (let code?, let message?): return "\(code): \(message)"
        case (let code?, nil): return code
        case (nil, let message?): return message
        case (nil, nil): return "HTTP \(httpStatus)"
        }
    }
}
