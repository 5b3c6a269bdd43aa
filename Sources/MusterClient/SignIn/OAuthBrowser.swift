import Foundation

/// Shows a person the OpenID Connect issuer's sign-in page and brings back where the issuer sent them next: the
/// app's part of ``MusterClient/authWithOAuth(urlScheme:clientId:browser:)``.
///
/// On iOS and macOS, ``WebAuthenticationBrowser`` (`ASWebAuthenticationSession`) does it; a command-line program
/// or a Linux agent uses ``LoopbackBrowser`` (RFC 8252's loopback redirect); a test follows the redirects itself.
public protocol OAuthBrowser: Sendable {
    /// The address the issuer sends the person back to, with the code. The issuer must know it for the client id.
    ///
    /// - Parameter urlScheme: the app's URL scheme, e.g. `com.example.muster`, for browsers that come back to it.
    func redirectURI(urlScheme: String) -> URL

    /// Opens `authorizationURL` for the person to sign in and returns the address, starting with `redirectURI`,
    /// the issuer sent them back to (its query has `code` and `state`, or `error`). Throws when the person gave up.
    func signIn(at authorizationURL: URL, redirectURI: URL) async throws -> URL
}

extension OAuthBrowser {
    /// `urlScheme:/oauth/callback`: a private-use scheme's redirect (RFC 8252 §7.1).
    public func redirectURI(urlScheme: String) -> URL {
        URL(string: "\(urlScheme):/oauth/callback") ?? URL(fileURLWithPath: "/oauth/callback")
    }
}
