import Crypto
import Foundation
import Hummingbird
import HummingbirdHTTP2
import JWTKit
import NIOCore
import NIOSSL
import PushProviders

/// A local APNs: HTTP/2 over TLS on 127.0.0.1 with a certificate made at start, checking requests as Apple's
/// servers do (path, `apns-topic`, `apns-push-type`, `apns-expiration`, the provider token's signature, `kid`,
/// `iss` and age, or the client certificate) and answering 200 with a fresh `apns-id`.
///
/// It records every request that reaches `/3/device/…`, refused or not, and gives injected faults first.
public final class APNsServer: Sendable {
    /// How clients must authenticate.
    public enum Authentication: Sendable {
        /// Provider tokens signed by the key whose public half is `publicKeyPEM`, with these `kid` and `iss`.
        case token(publicKeyPEM: String, keyId: String, teamId: String)
        /// A TLS client certificate issued by (or being) one of `trusting`.
        case certificate(trusting: [NIOSSLCertificate])
    }

    /// One request as it arrived.
    public struct ReceivedPush: Sendable {
        /// The device token from `:path`.
        public var token: String
        /// The request's headers, names in lower case.
        public var headers: [String: String]
        /// The body as it came.
        public var body: Data
        /// "2" when the request came over HTTP/2, "1.1" otherwise.
        public var httpVersion: String
        /// Whether the TLS connection presented a client certificate.
        public var presentedClientCertificate: Bool
        /// The provider token's claims, when it was valid.
        public var claims: APNsProviderClaims?
        /// Why the request was refused (an APNs reason), or nil when it was taken.
        public var refusal: String?
        /// The `apns-id` answered.
        public var apnsId: String?

        /// The body parsed as a JSON object (empty when it is not one).
        public func json() -> [String: Any] {
            (try? JSONSerialization.jsonObject(with: body)) as? [String: Any] ?? [:]
        }
    }

    /// The port it listens on, on 127.0.0.1.
    public let port: Int
    /// Its TLS certificate, for clients to trust.
    public let certificate: TestCertificate
    private let log: StandInLog<ReceivedPush>
    private let running: Task<Void, any Error>

    private init(port: Int, certificate: TestCertificate, log: StandInLog<ReceivedPush>, running: Task<Void, any Error>)
    {
        self.port = port
        self.certificate = certificate
        self.log = log
        self.running = running
    }

    /// `https://127.0.0.1:port`, the `APNsConfiguration.endpoint` that reaches it.
    public var endpoint: URL { URL(string: "https://127.0.0.1:\(port)")! }

    /// What clients trust to reach it (`ProviderConnectionOptions.additionalTrustRoots`).
    public var trustRoots: [NIOSSLCertificate] { [try! certificate.nioCertificate()] }

    /// Starts a server for pushes to `topic`, authenticated as `authentication` says, judging token ages by `now`.
    public static func start(
        topic: String, authentication: Authentication, now: @escaping @Sendable () -> Date = { Date() }
    ) async throws -> APNsServer {
        let certificate = try TestCertificate.selfSigned(commonName: "Muster local APNs")
        var tls = TLSConfiguration.makeServerConfiguration(
            certificateChain: [.certificate(try certificate.nioCertificate())],
            privateKey: .privateKey(try certificate.nioPrivateKey()))
        let checker: APNsRequestChecker
        switch authentication {
        case .token(let publicKeyPEM, let keyId, let teamId):
            checker = try await APNsRequestChecker(
                topic: topic, publicKeyPEM: publicKeyPEM, keyId: keyId, teamId: teamId, now: now)
        case .certificate(let trusting):
            tls.trustRoots = .certificates(trusting)
            tls.certificateVerification = .noHostnameVerification
            checker = APNsRequestChecker(topic: topic, now: now)
        }
        let log = StandInLog<ReceivedPush>()
        let router = Router(context: APNsServerContext.self)
        router.post("/3/device/:token") { request, context in
            try await Self.answer(request, context: context, checker: checker, log: log)
        }
        let (ports, portsContinuation) = AsyncStream.makeStream(of: Int.self)
        let app = Application(
            router: router, server: try .http2Upgrade(tlsConfiguration: tls),
            configuration: .init(address: .hostname("127.0.0.1", port: 0)),
            onServerRunning: { channel in portsContinuation.yield(channel.localAddress?.port ?? 0) })
        let running = Task { try await app.run() }
        var iterator = ports.makeAsyncIterator()
        guard let port = await iterator.next(), port > 0 else {
            running.cancel()
            throw PushConfigurationError("APNsServer", "the server did not start")
        }
        return APNsServer(port: port, certificate: certificate, log: log, running: running)
    }

    /// Answers the next requests with `faults`, in order, then normally again.
    public func inject(_ faults: [StandInFault]) { log.inject(faults) }

    /// The requests received so far.
    public var pushes: [ReceivedPush] { log.records }

    /// The requests received, once there are at least `count`.
    public func waitForPushes(_ count: Int) async -> [ReceivedPush] { await log.wait(for: count) }

    /// Releases requests held unanswered and stops listening.
    public func stop() async {
        log.stop()
        running.cancel()
        _ = try? await running.value
    }

    private static func answer(
        _ request: Request, context: APNsServerContext, checker: APNsRequestChecker, log: StandInLog<ReceivedPush>
    ) async throws -> Response {
        let token = context.parameters.get("token") ?? ""
        var fields: [String: String] = [:]
        for field in request.headers { fields[field.name.canonicalName] = field.value }
        let bytes = try await request.body.collect(upTo: 64 * 1024)
        let body = Data(buffer: bytes)
        let presented = await context.presentedClientCertificate()
        let verdict = await checker.check(
            token: token, headers: fields, body: body, presentedCertificate: presented)
        var push = ReceivedPush(
            token: token, headers: fields, body: body,
            httpVersion: context.isHTTP2 ? "2" : "1.1", presentedClientCertificate: presented,
            claims: verdict.claims, refusal: verdict.refusal)
        if let refusal = verdict.refusal {
            log.record(push)
            return StandInFault.apns(verdict.status, reason: refusal).response!
        }
        if let fault = log.nextFault() {
            if case .neverAnswer = fault {
                log.record(push)
                await log.hold()
                return Response(status: .serviceUnavailable)
            }
            push.refusal = "injected"
            log.record(push)
            return fault.response!
        }
        let apnsId = UUID().uuidString
        push.apnsId = apnsId
        log.record(push)
        var headers = HTTPFields()
        headers[.init("apns-id")!] = apnsId
        return Response(status: .ok, headers: headers)
    }
}
