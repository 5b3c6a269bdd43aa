import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import NIOSSL

/// How a provider's connections are made: whom they trust, how long a request may take, how many run at once.
public struct ProviderConnectionOptions: Sendable {
    /// Certificate authorities trusted besides the system's (a local provider in tests, an inspecting proxy).
    public var additionalTrustRoots: [NIOSSLCertificate]
    /// Longest wait for one request's answer; past it the attempt is retried later.
    public var timeout: Duration
    /// Most connections to the provider's host at once (APNs multiplexes requests over each HTTP/2 connection).
    public var maximumConnections: Int

    public init(
        additionalTrustRoots: [NIOSSLCertificate] = [], timeout: Duration = .seconds(30), maximumConnections: Int = 8
    ) {
        self.additionalTrustRoots = additionalTrustRoots
        self.timeout = timeout
        self.maximumConnections = maximumConnections
    }

    /// Reads the extra trust roots from a PEM file (`muster serve --push-ca-file`).
    public static func trustRoots(pemFile path: String) throws -> [NIOSSLCertificate] {
        do {
            return try NIOSSLCertificate.fromPEMFile(path)
        } catch {
            throw PushConfigurationError(
                "--push-ca-file", "\(path) holds no PEM certificate that can be read (\(error))")
        }
    }
}

/// The HTTP client and the answers every provider shares.
enum ProviderHTTP {
    /// A client with its own connection pool, trusting the system's roots and `options.additionalTrustRoots`,
    /// presenting `identity` when the provider authenticates by TLS client certificate.
    static func client(
        _ options: ProviderConnectionOptions,
        identity: (chain: [NIOSSLCertificate], key: NIOSSLPrivateKey)? = nil
    ) -> HTTPClient {
        var tls = TLSConfiguration.makeClientConfiguration()
        if !options.additionalTrustRoots.isEmpty {
            tls.trustRoots = .default
            tls.additionalTrustRoots = [.certificates(options.additionalTrustRoots)]
        }
        if let identity {
            tls.certificateChain = identity.chain.map { .certificate($0) }
            tls.privateKey = .privateKey(identity.key)
        }
        var configuration = HTTPClient.Configuration(tlsConfiguration: tls)
        configuration.connectionPool = .init(
            idleTimeout: .seconds(60), concurrentHTTP1ConnectionsPerHostSoftLimit: options.maximumConnections)
        // A request waiting for a pooled connection is bounded by the connect timeout (async-http-client's
        // `getConnectionFromPoolTimeout`): with many deliveries queued behind a few connections, 10 s failed
        // requests that still had time. Each request's own deadline (`execute(_:timeout:)`) bounds it anyway.
        configuration.timeout = .init(connect: .init(options.timeout), read: .init(options.timeout))
        configuration.httpVersion = .automatic
        return HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
    }

    /// The `Retry-After` header as a wait: seconds, or an HTTP date (RFC 9110 §10.2.3); nil when absent or past.
    static func retryAfter(_ headers: HTTPHeaders, now: Date = Date()) -> Duration? {
        guard let value = headers.first(name: "retry-after")?.trimmingCharacters(in: .whitespaces) else { return nil }
        if let seconds = Int(value), seconds >= 0 { return .seconds(seconds) }
        let parser = DateFormatter()
        parser.locale = Locale(identifier: "en_US_POSIX")
        parser.timeZone = TimeZone(identifier: "GMT")
        parser.dateFormat = "EEE, dd MMM yyyy HH:mm:ss zzz"
        guard let date = parser.date(from: value), date > now else { return nil }
        return .milliseconds(Int64(date.timeIntervalSince(now) * 1000))
    }

    /// A provider's answer: its status, headers and at most 64 KiB of its body — empty when the body could not be
    /// read, so the status alone decides (a 200 whose body broke off was still delivered).
    struct Answer: Sendable {
        var status: Int
        var headers: HTTPHeaders
        var body: ByteBuffer
    }

    /// Sends `request` and reads the answer within `timeout`; throws only when no answer came (`outcome(of:)`).
    static func exchange(_ client: HTTPClient, _ request: HTTPClientRequest, timeout: Duration) async throws -> Answer {
        let response = try await client.execute(request, timeout: .init(timeout))
        let body = (try? await response.body.collect(upTo: 64 * 1024)) ?? ByteBuffer()
        return Answer(status: Int(response.status.code), headers: response.headers, body: body)
    }

    /// Sends one push's `request`: what `meaning` makes of the answer, or a retry when none came.
    static func send(
        _ client: HTTPClient, _ request: HTTPClientRequest, timeout: Duration,
        meaning: (Answer) async -> PushOutcome
    ) async -> PushOutcome {
        do {
            return await meaning(try await exchange(client, request, timeout: timeout))
        } catch {
            return outcome(of: error)
        }
    }

    /// An attempt that failed before an answer came: a timeout, a refused or broken connection, a TLS failure.
    /// All are retried; the reason names what happened (never a credential).
    static func outcome(of error: any Error) -> PushOutcome {
        if let client = error as? HTTPClientError {
            switch client {
            case .readTimeout, .deadlineExceeded, .connectTimeout, .getConnectionFromPoolTimeout:
                return .retry(status: nil, reason: "timeout: the provider did not answer in time", after: nil)
            default:
                return .retry(status: nil, reason: "connection: \(client)", after: nil)
            }
        }
        return .retry(status: nil, reason: "connection: \(error)", after: nil)
    }

    /// A 429 or 5xx is retried (after `Retry-After` when given); other statuses are the provider's to classify.
    static func isTransient(_ status: Int) -> Bool { status == 429 || (500...599).contains(status) }
}
