import Foundation
import HTTPTypes
import Hummingbird
import Muster
import Synchronization

/// Sends each request to the server of its caller's namespace, on a node that keeps several namespaces in logs of their
/// own: the namespace a bearer token names (tokens a cluster issues carry it), or the log that knows the token (one
/// issued before); for a login, the namespace its body names; for a refresh, its refresh token's; without a token, the
/// namespace its query names (the Ubudu web API's `/u_*.json`). Anything else — the server's description, the web
/// app, a request with no token or one no namespace knows — goes to the default namespace's server, which answers it
/// as a server of its own would.
struct NamespaceResponder: HTTPResponder {
    typealias Context = MusterRequestContext

    /// One namespace's server: its router, and its sessions to look tokens up in.
    struct Namespace: Sendable {
        let responder: RouterResponder<MusterRequestContext>
        let sessions: Sessions
    }

    let namespaces: [String: Namespace]
    let defaultNamespace: String
    /// The most bytes of a login's or refresh's body read to find its namespace.
    let bodyLimit: Int
    /// Untagged tokens already found, by their text: a token stays in its namespace for good.
    private let found = FoundTokens()

    final class FoundTokens: Sendable {
        let namespaces = Mutex<[String: String]>([:])
    }

    init(namespaces: [String: Namespace], defaultNamespace: String, bodyLimit: Int) {
        self.namespaces = namespaces
        self.defaultNamespace = defaultNamespace
        self.bodyLimit = bodyLimit
    }

    func respond(to request: Request, context: Context) async throws -> Response {
        var request = request
        let namespace: String
        do {
            namespace = try await self.namespace(of: &request) ?? defaultNamespace
        } catch {
            return try APIError.translating(error).response(from: request, context: context)
        }
        return try await (namespaces[namespace] ?? namespaces[defaultNamespace]!).responder.respond(
            to: request, context: context)
    }

    /// The namespace `request` belongs to, when it says; its body is read (and put back) for a login or refresh.
    private func namespace(of request: inout Request) async throws -> String? {
        if let header = request.headers[.authorization], header.count > 7, header.prefix(7).lowercased() == "bearer " {
            return try namespace(holding: String(header.dropFirst(7)), refresh: false)
        }
        guard request.method == .post, ["/api/v1/auth/token", "/api/v1/auth/refresh"].contains(request.uri.path)
        else {
            // The Ubudu web API's `/u_*.json`, open without login, name it in the query.
            return request.uri.queryParameters.get("namespace").map { String($0) }
        }
        let body = try await request.body.collect(upTo: bodyLimit)
        request.body = RequestBody(buffer: body)
        guard let object = try? JSONSerialization.jsonObject(with: Data(buffer: body)) as? [String: Any] else {
            return nil
        }
        if let refreshToken = object["refreshToken"] as? String {
            return try namespace(holding: refreshToken, refresh: true)
        }
        return object["namespace"] as? String
    }

    /// The namespace `token` names, or whose log knows it; nil when none does.
    private func namespace(holding token: String, refresh: Bool) throws -> String? {
        if let named = Sessions.namespace(namedBy: token), namespaces[named] != nil { return named }
        if let known = found.namespaces.withLock({ $0[token] }) { return known }
        for (name, namespace) in namespaces where try namespace.sessions.knows(token: token, refresh: refresh) {
            found.namespaces.withLock { found in
                if found.count >= 100_000 { found.removeAll() }
                found[token] = name
            }
            return name
        }
        return nil
    }
}
