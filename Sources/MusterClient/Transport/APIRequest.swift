import Foundation
import MusterWire

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// One request to a route under `/api/v1`: what `MusterClient` sends, before the bearer token is added.
struct APIRequest: Sendable {
    var method: String
    /// The path segments after `/api/v1`, unencoded; each is percent-encoded on its own.
    var path: [String]
    var query: [URLQueryItem] = []
    var body: Data?
    var contentType: String?
    var accept = "application/json"
    /// Whether the route needs the bearer token.
    var authorized = true

    init(_ method: String, _ path: [String], authorized: Bool = true) {
        self.method = method
        self.path = path
        self.authorized = authorized
    }

    /// A request with a JSON body.
    init<Body: Encodable>(_ method: String, _ path: [String], json body: Body, authorized: Bool = true)
        throws(MusterClientError)
    {
        self.init(method, path, authorized: authorized)
        do {
            self.body = try MusterJSON.encoder().encode(body)
        } catch {
            throw MusterClientError(code: .invalidArgument, message: "cannot encode the request body: \(error)")
        }
        contentType = "application/json"
    }

    /// How the request is named in messages, e.g. `POST /api/v1/auth/token`.
    var summary: String {
        "\(method) /api/v1/" + path.joined(separator: "/")
    }

    /// The URL under `serverURL` (which may itself have a path, e.g. behind a reverse proxy).
    func url(serverURL: URL) -> URL? {
        guard var components = URLComponents(url: serverURL, resolvingAgainstBaseURL: false) else { return nil }
        var base = components.percentEncodedPath
        while base.hasSuffix("/") { base.removeLast() }
        let segments = ["api", "v1"] + path
        components.percentEncodedPath = base + "/" + segments.map(Self.encodeSegment).joined(separator: "/")
        if !query.isEmpty { components.queryItems = query }
        return components.url
    }

    /// The `URLRequest` for `serverURL`, with the bearer token when there is one.
    func urlRequest(serverURL: URL, bearer: String?) throws(MusterClientError) -> URLRequest {
        guard let url = url(serverURL: serverURL) else {
            throw MusterClientError(code: .invalidArgument, message: "cannot build a URL for \(summary)")
        }
        var request = URLRequest(url: url)
        request.httpMethod = method
        request.httpBody = body
        request.setValue(accept, forHTTPHeaderField: "Accept")
        if let contentType { request.setValue(contentType, forHTTPHeaderField: "Content-Type") }
        if let bearer { request.setValue("Bearer \(bearer)", forHTTPHeaderField: "Authorization") }
        return request
    }

    /// A path segment percent-encoded: `/`, `?`, `#` and `%` inside a segment never change the route.
    /// A topic's `#` wildcard therefore travels as `%23`.
    static func encodeSegment(_ segment: String) -> String {
        segment.addingPercentEncoding(withAllowedCharacters: segmentAllowed) ?? segment
    }

    private static let segmentAllowed: CharacterSet = {
        var allowed = CharacterSet.urlPathAllowed
        allowed.remove(charactersIn: "/;")
        return allowed
    }()
}

/// A route's answer.
struct APIResponse: Sendable {
    var statusCode: Int
    var body: Data
    var contentType: String?
    var retryAfter: String?

    /// Whether the status is 2xx.
    var succeeded: Bool { (200..<300).contains(statusCode) }

    /// The error this answer carries (when it is not 2xx).
    var error: MusterClientError {
        MusterClientError(statusCode: statusCode, body: body, retryAfter: retryAfter)
    }
}
