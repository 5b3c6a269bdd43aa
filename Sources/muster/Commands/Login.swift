import ArgumentParser
import Foundation
import MusterClient

/// `muster login`: logs in to a server and keeps the login for the domain verbs.
struct Login: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Log in to a Muster server; the domain verbs then act on it.",
        discussion: """
            The tokens, the server and the namespace are kept in $MUSTER_SESSION, or else in \
            ~/.config/muster/session.json (mode 0600), and refreshed as they expire. A domain verb acts on a \
            server when given --server URL, or when a login is stored and neither --data nor MUSTER_DATA is \
            given; otherwise on the data directory, as always.

            A server with its own logins (serverType Internal) takes USER and a password. On a server that takes \
            an OpenID Connect issuer's tokens (serve --auth oauth), --oidc signs in at the issuer instead: muster \
            listens on 127.0.0.1 on a free port, prints the issuer's address to open in any browser, and takes \
            the code from the issuer's redirect to http://127.0.0.1:PORT/callback (RFC 8252), which the issuer \
            must allow for the client id. The issuer's refresh token, when it gives one, renews the login.
            """)

    @Option(help: ArgumentHelp("The server, e.g. http://localhost:8080.", valueName: "URL")) var server: String
    @Argument(help: "User name (not with --oidc: the issuer says who signed in).") var user: String?
    @Option(help: "Namespace (default: the server's).") var namespace: String?
    @Flag(help: "Read the password from the first line of stdin (otherwise it is asked on the terminal).")
    var passwordStdin = false
    @Flag(help: "Sign in in a browser at the server's OpenID Connect issuer (serve --auth oauth).")
    var oidc = false
    @Option(help: "With --oidc: the client id registered at the issuer (default: the server's, its --oidc-client-id).")
    var clientId: String?
    @Option(help: "With --oidc: how many seconds to wait for the sign-in in the browser.")
    var signInTimeout = 300
    @Flag(help: #"Print one JSON object: {"server","namespace"?,"username","expiresAt"?,"session"}."#)
    var json = false

    /// What `--json` prints: the login as it is kept.
    struct LoggedIn: Encodable {
        var server: String
        /// Nil when the login names none: the server's.
        var namespace: String?
        var username: String
        /// When the access token expires; it is refreshed as it does.
        var expiresAt: Date?
        /// The file the login is kept in.
        var session: String
    }

    func validate() throws {
        if oidc {
            if let user { throw ValidationError("USER \(user): not with --oidc; the issuer says who signed in") }
            if passwordStdin { throw ValidationError("--password-stdin: not with --oidc; no password is asked") }
            if signInTimeout < 1 { throw ValidationError("--sign-in-timeout must be at least 1 second") }
        } else {
            if user == nil { throw ValidationError("missing USER: the user name to log in as (or --oidc)") }
            if clientId != nil { throw ValidationError("--client-id: only with --oidc") }
        }
    }

    func run() async throws {
        let url = try BackendOptions.url(server)
        let client = MusterClient(serverURL: url, namespace: namespace, tokenStore: SessionFile.store)
        let session = oidc ? try await signIn(client, url) : try await logIn(client, url)
        if let error = session.error {
            throw ServerSession(server: url, stored: nil).failure(error)
        }
        let username = session.username ?? user ?? "-"
        if json {
            let stored = try SessionFile.load()
            return try Output.json(
                LoggedIn(
                    server: url.absoluteString, namespace: namespace, username: username,
                    expiresAt: stored?.expiresAt, session: SessionFile.url.path))
        }
        let place = url.absoluteString + (namespace.map { ", namespace \($0)" } ?? "")
        Output.line("logged in as \(username) on \(place); the login is kept in \(SessionFile.url.path)")
    }

    /// USER and a password, on an Internal server.
    private func logIn(_ client: MusterClient, _ url: URL) async throws -> MusterSession {
        let user = user ?? ""
        let password =
            passwordStdin
            ? try PasswordInput.firstLineOfStdin()
            : try PasswordInput.ask("Password of \(user) on \(url.absoluteString): ")
        return await client.authWithInternal(username: user, password: password)
    }

    /// The issuer's sign-in in a browser, with the redirect caught on the loopback address.
    private func signIn(_ client: MusterClient, _ url: URL) async throws -> MusterSession {
        let issuer: OAuthIssuer
        do {
            issuer = try await client.oauthIssuer()
        } catch {
            throw ServerSession(server: url, stored: nil).failure(error)
        }
        let json = json
        let browser = try LoopbackBrowser(timeout: .seconds(signInTimeout)) { address in
            // With --json stdout holds only the result, so the address goes to stderr.
            let text = "Open this address in a browser to sign in: \(address.absoluteString)\n"
            (json ? FileHandle.standardError : FileHandle.standardOutput).write(Data(text.utf8))
        }
        return await client.authWithOAuth(
            urlScheme: "http", clientId: clientId ?? issuer.clientId, browser: browser)
    }
}
