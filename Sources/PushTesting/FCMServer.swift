import Foundation
import Hummingbird
import JWTKit
import PushProviders
import Synchronization

/// A local FCM and Google token endpoint over plain HTTP on 127.0.0.1.
///
/// `POST /token` checks a service account's RS256 assertion (signature, `iss`, `aud`, `scope`, `iat`, `exp`) and
/// issues an access token; `POST /v1/projects/P/messages:send` takes a message only with a token it issued and
/// answers `{"name": "projects/P/messages/<id>"}`. Both record every request and give injected faults first.
public final class FCMServer: Sendable {
    /// One token request as it arrived.
    public struct TokenRequest: Sendable {
        /// The assertion's claims, when its signature checked out.
        public var claims: FCMAssertionClaims?
        /// The access token issued, or nil.
        public var accessToken: String?
        /// Why it was refused (the OAuth error and what was wrong), nil when a token was issued.
        public var refusal: String?
    }

    /// One `messages:send` request as it arrived.
    public struct ReceivedMessage: Sendable {
        /// The project in the path.
        public var projectId: String
        /// The bearer token it carried.
        public var bearer: String?
        /// The body as it came.
        public var body: Data
        /// Why it was refused, nil when it was taken.
        public var refusal: String?
        /// The message name answered.
        public var name: String?

        /// The body's `message` object (empty when there is none).
        public func message() -> [String: Any] {
            let body = (try? JSONSerialization.jsonObject(with: body)) as? [String: Any]
            return body?["message"] as? [String: Any] ?? [:]
        }
    }

    private struct Accounts: Sendable {
        var keys: [String: JWTKeyCollection] = [:]
        var issued: Set<String> = []
        var expiresIn = 3600
    }

    /// The port it listens on, on 127.0.0.1.
    public let port: Int
    private let accounts: Mutex<Accounts>
    private let tokenLog: StandInLog<TokenRequest>
    private let messageLog: StandInLog<ReceivedMessage>
    private let running: Task<Void, any Error>
    private let now: @Sendable () -> Date

    private init(
        port: Int, running: Task<Void, any Error>, now: @escaping @Sendable () -> Date
    ) {
        self.port = port
        accounts = Mutex(Accounts())
        tokenLog = StandInLog()
        messageLog = StandInLog()
        self.running = running
        self.now = now
    }

    /// `http://127.0.0.1:port`, the `FCMConfiguration.endpoint` that reaches it.
    public var endpoint: URL { URL(string: "http://127.0.0.1:\(port)")! }
    /// The `token_uri` of the service accounts it knows.
    public var tokenURI: URL { URL(string: "http://127.0.0.1:\(port)/token")! }

    /// Starts a server that judges assertions' times by `now`.
    public static func start(now: @escaping @Sendable () -> Date = { Date() }) async throws -> FCMServer {
        let holder = ServerHolder()
        let router = Router()
        router.post("/token") { request, _ in
            try await holder.server!.answerToken(request)
        }
        router.post("/v1/projects/:project/:action") { request, context in
            try await holder.server!.answerSend(
                request, project: context.parameters.get("project") ?? "",
                action: context.parameters.get("action") ?? "")
        }
        let (ports, portsContinuation) = AsyncStream.makeStream(of: Int.self)
        let app = Application(
            router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)),
            onServerRunning: { channel in portsContinuation.yield(channel.localAddress?.port ?? 0) })
        let running = Task { try await app.run() }
        var iterator = ports.makeAsyncIterator()
        guard let port = await iterator.next(), port > 0 else {
            running.cancel()
            throw PushConfigurationError("FCMServer", "the server did not start")
        }
        let server = FCMServer(port: port, running: running, now: now)
        holder.server = server
        return server
    }

    /// A new service account of `projectId` whose `token_uri` is this server, which accepts its assertions.
    public func newServiceAccount(projectId: String = "muster-test") async throws -> ServiceAccountTestFile {
        let file = try await ServiceAccountTestFile.generate(projectId: projectId, tokenURI: tokenURI)
        try await accept(clientEmail: file.clientEmail, publicKeyPEM: file.publicKeyPEM)
        return file
    }

    /// Accepts assertions from `clientEmail` signed by the key whose public half is `publicKeyPEM`.
    public func accept(clientEmail: String, publicKeyPEM: String) async throws {
        let keys = JWTKeyCollection()
        await keys.add(rsa: try Insecure.RSA.PublicKey(pem: publicKeyPEM), digestAlgorithm: .sha256)
        accounts.withLock { $0.keys[clientEmail] = keys }
    }

    /// The `expires_in` of the tokens it issues from now on (3600 by default).
    public func setTokenLifetime(seconds: Int) { accounts.withLock { $0.expiresIn = seconds } }

    /// Answers the next `messages:send` requests with `faults`, in order.
    public func inject(_ faults: [StandInFault]) { messageLog.inject(faults) }

    /// Answers the next token requests with `faults`, in order.
    public func injectTokenFaults(_ faults: [StandInFault]) { tokenLog.inject(faults) }

    /// The token requests received so far.
    public var tokenRequests: [TokenRequest] { tokenLog.records }

    /// The messages received so far.
    public var messages: [ReceivedMessage] { messageLog.records }

    /// The messages received, once there are at least `count`.
    public func waitForMessages(_ count: Int) async -> [ReceivedMessage] { await messageLog.wait(for: count) }

    /// Releases requests held unanswered and stops listening.
    public func stop() async {
        tokenLog.stop()
        messageLog.stop()
        running.cancel()
        _ = try? await running.value
    }

    private func answerToken(_ request: Request) async throws -> Response {
        let form = Self.form(Data(buffer: try await request.body.collect(upTo: 64 * 1024)))
        var record = TokenRequest()
        func refuse(_ error: String, _ description: String) -> Response {
            record.refusal = "\(error): \(description)"
            tokenLog.record(record)
            return StandInFault.answer(
                status: 400, body: #"{"error":"\#(error)","error_description":"\#(description)"}"#
            ).response!
        }
        guard form["grant_type"] == "urn:ietf:params:oauth:grant-type:jwt-bearer" else {
            return refuse("unsupported_grant_type", "grant_type must be the JWT bearer grant")
        }
        guard let assertion = form["assertion"] else { return refuse("invalid_request", "no assertion") }
        let parser = JWTKeyCollection()
        guard let unverified = try? await parser.unverified(assertion, as: FCMAssertionClaims.self),
            let keys = accounts.withLock({ $0.keys[unverified.iss] })
        else { return refuse("invalid_grant", "Invalid issuer") }
        guard let claims = try? await keys.verify(assertion, as: FCMAssertionClaims.self) else {
            return refuse("invalid_grant", "Invalid JWT Signature.")
        }
        record.claims = claims
        let now = Int(self.now().timeIntervalSince1970)
        guard claims.aud == tokenURI.absoluteString else { return refuse("invalid_grant", "Invalid audience") }
        guard claims.scope.split(separator: " ").contains(Substring(FCMAssertionClaims.messagingScope)) else {
            return refuse("invalid_scope", "firebase.messaging is not in the scope")
        }
        guard claims.exp > now, claims.iat <= now + 60, claims.exp - claims.iat <= 3600 else {
            return refuse("invalid_grant", "Invalid JWT: Token must be a short-lived token (60 minutes)")
        }
        if let fault = tokenLog.nextFault() {
            return await Self.give(fault, record: record, to: tokenLog)
        }
        let token = "ya29.test-\(UUID().uuidString)"
        let expiresIn = accounts.withLock { accounts in
            accounts.issued.insert(token)
            return accounts.expiresIn
        }
        record.accessToken = token
        tokenLog.record(record)
        return Self.json(#"{"access_token":"\#(token)","expires_in":\#(expiresIn),"token_type":"Bearer"}"#)
    }

    private func answerSend(_ request: Request, project: String, action: String) async throws -> Response {
        let body = Data(buffer: try await request.body.collect(upTo: 64 * 1024))
        let authorization = request.headers[.authorization]
        let bearer = authorization.flatMap { $0.hasPrefix("Bearer ") ? String($0.dropFirst(7)) : nil }
        var record = ReceivedMessage(projectId: project, bearer: bearer, body: body)
        func refuse(_ fault: StandInFault, _ reason: String) -> Response {
            record.refusal = reason
            messageLog.record(record)
            return fault.response!
        }
        guard action == "messages:send" else {
            return refuse(.fcm(404, status: "NOT_FOUND", message: "no such method"), "NOT_FOUND")
        }
        guard let bearer, accounts.withLock({ $0.issued.contains(bearer) }) else {
            return refuse(
                .fcm(401, status: "UNAUTHENTICATED", message: "Request had invalid authentication credentials."),
                "UNAUTHENTICATED")
        }
        if let problem = Self.problem(in: record.message()) {
            return refuse(.fcm(400, status: "INVALID_ARGUMENT", message: problem), "INVALID_ARGUMENT: \(problem)")
        }
        if let fault = messageLog.nextFault() {
            record.refusal = "injected"
            return await Self.give(fault, record: record, to: messageLog)
        }
        let name = "projects/\(project)/messages/\(UUID().uuidString)"
        record.name = name
        messageLog.record(record)
        return Self.json(#"{"name":"\#(name)"}"#)
    }

    /// What FCM would find wrong with `message`, or nil.
    private static func problem(in message: [String: Any]) -> String? {
        guard let token = message["token"] as? String, !token.isEmpty else { return "message.token is required" }
        if let data = message["data"] {
            guard let data = data as? [String: Any], data.values.allSatisfy({ $0 is String }) else {
                return "Invalid value at 'message.data': values must be strings"
            }
        }
        if let android = message["android"] as? [String: Any], let ttl = android["ttl"] {
            guard let ttl = ttl as? String, ttl.hasSuffix("s"), Int(ttl.dropLast()) != nil else {
                return "Invalid value at 'message.android.ttl'"
            }
        }
        return nil
    }

    /// Records the request and gives `fault`: its answer, or none until the server stops.
    private static func give<Record>(_ fault: StandInFault, record: Record, to log: StandInLog<Record>) async
        -> Response
    {
        log.record(record)
        if case .neverAnswer = fault {
            await log.hold()
            return Response(status: .serviceUnavailable)
        }
        return fault.response!
    }

    private static func json(_ text: String) -> Response {
        Response(
            status: .ok, headers: [.contentType: "application/json"], body: .init(byteBuffer: ByteBuffer(string: text)))
    }

    /// The fields of an `application/x-www-form-urlencoded` body.
    private static func form(_ body: Data) -> [String: String] {
        var fields: [String: String] = [:]
        for pair in String(decoding: body, as: UTF8.self).split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1).map {
                $0.replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? String($0)
            }
            if parts.count == 2 { fields[parts[0]] = parts[1] }
        }
        return fields
    }
}

/// The server the routes answer for, set once it listens (the routes are made before it exists).
private final class ServerHolder: Sendable {
    private let value = Mutex<FCMServer?>(nil)

    var server: FCMServer? {
        get { value.withLock { $0 } }
        set { value.withLock { $0 = newValue } }
    }
}
