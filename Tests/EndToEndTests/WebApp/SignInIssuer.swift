import Crypto
import Foundation
import Hummingbird
import JWTKit
import Synchronization

/// An OpenID Connect issuer on 127.0.0.1, as a browser and Muster meet one: its discovery document, a sign-in page
/// where the test types who signs in, the authorization code flow with PKCE (S256) for a public client, ES256 ID
/// tokens, and the JWKS that checks them.
final class SignInIssuer: Sendable {
    /// A code handed to the browser, waiting to be traded for tokens.
    private struct Grant {
        var clientId: String
        var redirectURI: String
        var challenge: String
        var subject: String
    }

    /// What the token endpoint refused, and why, in order.
    let refusals = Mutex<[String]>([])
    /// How many refresh tokens were traded for new ID tokens.
    let refreshes = Mutex(0)
    let port: Int
    /// Whether the token endpoint hands out refresh tokens with the ID token (as many issuers do).
    let issuesRefreshTokens: Bool
    private let grants = Mutex<[String: Grant]>([:])
    private let refreshTokens = Mutex<[String: Grant]>([:])
    private let key = ES256PrivateKey()
    private let keys = JWTKeyCollection()
    private let running: Task<Void, any Error>

    var issuer: String { "http://127.0.0.1:\(port)" }

    /// The JWKS document, as `serve --jwks` reads it.
    var jwks: String {
        let (x, y) = key.parameters!
        return #"{"keys":[{"kty":"EC","crv":"P-256","kid":"k1","alg":"ES256","use":"sig","x":"\#(x)","y":"\#(y)"}]}"#
    }

    private init(port: Int, issuesRefreshTokens: Bool, running: Task<Void, any Error>) {
        self.port = port
        self.issuesRefreshTokens = issuesRefreshTokens
        self.running = running
    }

    /// An issuer on a free port; `refreshTokens` makes its token endpoint hand out (rotating) refresh tokens.
    static func start(refreshTokens: Bool = false) async throws -> SignInIssuer {
        let holder = Holder()
        let router = Router()
        router.get("/.well-known/openid-configuration") { _, _ in try holder.issuer!.discovery() }
        router.get("/jwks") { _, _ in holder.issuer!.json(holder.issuer!.jwks) }
        router.get("/authorize") { request, _ in holder.issuer!.signInPage(request.uri.queryParameters) }
        router.post("/authorize") { request, _ in
            let form = try await Self.form(request)
            return try holder.issuer!.authorize(form)
        }
        router.post("/token") { request, _ in try await holder.issuer!.token(try await Self.form(request)) }
        let (ports, found) = AsyncStream.makeStream(of: Int.self)
        let app = Application(
            router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)),
            onServerRunning: { found.yield($0.localAddress?.port ?? 0) })
        let running = Task { try await app.run() }
        var iterator = ports.makeAsyncIterator()
        guard let port = await iterator.next(), port > 0 else {
            running.cancel()
            throw CocoaError(.fileReadUnknown)
        }
        let issuer = SignInIssuer(port: port, issuesRefreshTokens: refreshTokens, running: running)
        await issuer.keys.add(ecdsa: issuer.key, kid: "k1")
        holder.issuer = issuer
        return issuer
    }

    func stop() { running.cancel() }

    private func discovery() throws -> Response {
        json(
            """
            {"issuer":"\(issuer)","authorization_endpoint":"\(issuer)/authorize","token_endpoint":"\(issuer)/token",\
            "jwks_uri":"\(issuer)/jwks","response_types_supported":["code"],"code_challenge_methods_supported":["S256"]}
            """)
    }

    /// The page a person signs in on: the request's parameters carried in hidden fields, and who they are.
    private func signInPage(_ query: Hummingbird.Parameters) -> Response {
        let hidden = ["client_id", "redirect_uri", "state", "code_challenge", "code_challenge_method", "scope"]
            .map { #"<input type="hidden" name="\#($0)" value="\#(query.get($0) ?? "")">"# }
            .joined()
        let page = """
            <!doctype html><title>Test issuer</title><form method="post" action="/authorize">\(hidden)\
            <label for="subject">Who signs in</label><input id="subject" name="subject">\
            <button id="approve" type="submit">Sign in</button></form>
            """
        return Response(
            status: .ok, headers: [.contentType: "text/html; charset=utf-8"],
            body: .init(byteBuffer: ByteBuffer(string: page)))
    }

    /// Signed in: back to the client with a code, or with `access_denied` when nobody was named.
    private func authorize(_ form: [String: String]) throws -> Response {
        let redirect = form["redirect_uri"] ?? ""
        var back = URLComponents(string: redirect)!
        let subject = form["subject"] ?? ""
        if subject.isEmpty || form["code_challenge_method"] != "S256" {
            back.queryItems = [
                .init(name: "error", value: "access_denied"),
                .init(name: "error_description", value: "nobody signed in"),
                .init(name: "state", value: form["state"]),
            ]
        } else {
            let code = UUID().uuidString
            grants.withLock {
                $0[code] = Grant(
                    clientId: form["client_id"] ?? "", redirectURI: redirect, challenge: form["code_challenge"] ?? "",
                    subject: subject)
            }
            back.queryItems = [.init(name: "code", value: code), .init(name: "state", value: form["state"])]
        }
        return Response(status: .found, headers: [.location: back.string!])
    }

    /// Trades a code for an ID token when the verifier hashes to the challenge and the client and redirect match;
    /// with refresh tokens on, also a refresh token for a new ID token.
    private func token(_ form: [String: String]) async throws -> Response {
        let granted: Result<(clientId: String, subject: String), Refusal> =
            switch form["grant_type"] {
            case "authorization_code": codeGrant(form)
            case "refresh_token" where issuesRefreshTokens: refreshGrant(form)
            default: .failure(Refusal(reason: "unsupported_grant_type"))
            }
        let grant: (clientId: String, subject: String)
        switch granted {
        case .success(let granted): grant = granted
        case .failure(let refusal):
            refusals.withLock { $0.append(refusal.reason) }
            return json(#"{"error":"invalid_grant","error_description":"\#(refusal.reason)"}"#, status: .badRequest)
        }
        struct Claims: JWTPayload {
            var iss: IssuerClaim
            var aud: AudienceClaim
            var exp: ExpirationClaim
            var iat: IssuedAtClaim
            var sub: SubjectClaim
            func verify(using algorithm: some JWTAlgorithm) async throws {}
        }
        let idToken = try await keys.sign(
            Claims(
                iss: .init(value: issuer), aud: .init(value: [grant.clientId]),
                exp: .init(value: Date(timeIntervalSinceNow: 600)), iat: .init(value: Date()),
                sub: .init(value: grant.subject)),
            kid: "k1")
        guard issuesRefreshTokens else {
            return json(#"{"id_token":"\#(idToken)","token_type":"Bearer","expires_in":600}"#)
        }
        let refreshToken = UUID().uuidString
        refreshTokens.withLock {
            $0[refreshToken] = Grant(clientId: grant.clientId, redirectURI: "", challenge: "", subject: grant.subject)
        }
        return json(
            #"{"id_token":"\#(idToken)","refresh_token":"\#(refreshToken)","token_type":"Bearer","expires_in":600}"#)
    }

    /// Why the token endpoint refused.
    private struct Refusal: Error {
        var reason: String
    }

    /// The code's grant, used up, when the verifier, client and redirect are the ones it was issued for.
    private func codeGrant(_ form: [String: String]) -> Result<(clientId: String, subject: String), Refusal> {
        guard let grant = grants.withLock({ $0.removeValue(forKey: form["code"] ?? "") }) else {
            return .failure(Refusal(reason: "invalid_grant: unknown or used code"))
        }
        let verifier = Data((form["code_verifier"] ?? "").utf8)
        let hashed = Data(SHA256.hash(data: verifier)).base64EncodedString()
            .replacing("+", with: "-").replacing("/", with: "_").replacing("=", with: "")
        if grant.challenge != hashed {
            return .failure(Refusal(reason: "invalid_grant: the code_verifier does not match the code_challenge"))
        }
        if grant.clientId != form["client_id"] || grant.redirectURI != form["redirect_uri"] {
            return .failure(Refusal(reason: "invalid_grant: another client or redirect_uri"))
        }
        return .success((grant.clientId, grant.subject))
    }

    /// The refresh token's grant, rotated: each refresh token buys one new ID token (and the next refresh token).
    private func refreshGrant(_ form: [String: String]) -> Result<(clientId: String, subject: String), Refusal> {
        guard let grant = refreshTokens.withLock({ $0.removeValue(forKey: form["refresh_token"] ?? "") }) else {
            return .failure(Refusal(reason: "invalid_grant: unknown or used refresh token"))
        }
        guard grant.clientId == form["client_id"] else {
            return .failure(Refusal(reason: "invalid_grant: the refresh token is another client's"))
        }
        refreshes.withLock { $0 += 1 }
        return .success((grant.clientId, grant.subject))
    }

    /// A JSON answer any origin may read (the browser fetches the token endpoint from Muster's page).
    private func json(_ text: String, status: HTTPResponse.Status = .ok) -> Response {
        Response(
            status: status,
            headers: [.contentType: "application/json", .accessControlAllowOrigin: "*", .cacheControl: "no-store"],
            body: .init(byteBuffer: ByteBuffer(string: text)))
    }

    private static func form(_ request: Request) async throws -> [String: String] {
        let body = try await request.body.collect(upTo: 65536)
        var parts = URLComponents()
        parts.percentEncodedQuery = String(buffer: body).replacing("+", with: "%20")
        return Dictionary(
            (parts.queryItems ?? []).map { ($0.name, $0.value ?? "") }, uniquingKeysWith: { first, _ in first })
    }

    private final class Holder: @unchecked Sendable {
        var issuer: SignInIssuer?
    }
}
