import Foundation
import MusterClient
import Synchronization
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A person at a ``SignInIssuer``'s sign-in page, played over real sockets: opens the authorization URL, names who
/// signs in, and brings back the issuer's redirect without following it (an app's scheme is no HTTP address).
final class IssuerBrowser: OAuthBrowser {
    /// Who signs in; empty for a person who gives up.
    let subject: String
    /// The authorization URLs opened, in order.
    let opened = Mutex<[URL]>([])

    init(subject: String) {
        self.subject = subject
    }

    func signIn(at authorizationURL: URL, redirectURI: URL) async throws -> URL {
        opened.withLock { $0.append(authorizationURL) }
        return try await Self.approve(authorizationURL, as: subject)
    }

    /// Opens the sign-in page at `authorizationURL`, submits its form as `subject`, and returns where the issuer
    /// sends the browser next (its `Location`).
    static func approve(_ authorizationURL: URL, as subject: String) async throws -> URL {
        let (page, response) = try await URLSession.shared.data(from: authorizationURL)
        try #require((response as? HTTPURLResponse)?.statusCode == 200, "the sign-in page did not open")
        try #require(String(decoding: page, as: UTF8.self).contains("Who signs in"))
        // The page's hidden fields carry the request's parameters; the form adds who signs in.
        let query = URLComponents(url: authorizationURL, resolvingAgainstBaseURL: false)?.queryItems ?? []
        let form = (query + [URLQueryItem(name: "subject", value: subject)])
            .map { "\(Self.encode($0.name))=\(Self.encode($0.value ?? ""))" }
            .joined(separator: "&")
        let port = try #require(authorizationURL.port)
        let connection = try RawConnection(port: port)
        try connection.send(
            "POST /authorize HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n"
                + "Content-Type: application/x-www-form-urlencoded\r\nContent-Length: \(form.utf8.count)\r\n"
                + "Connection: close\r\n\r\n\(form)")
        let answer = try await connection.readUntilClosed()
        try #require(answer.hasPrefix("HTTP/1.1 302"), "the issuer did not redirect: \(answer)")
        let location = try #require(
            answer.split(separator: "\r\n").first { $0.lowercased().hasPrefix("location: ") }?.dropFirst(10))
        return try #require(URL(string: String(location)))
    }

    private static func encode(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? text
    }
}
