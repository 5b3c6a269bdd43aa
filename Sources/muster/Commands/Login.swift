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
            given; otherwise on the data directory, as always. Only servers with their own logins (serverType \
            Internal) are supported.
            """)

    @Option(help: ArgumentHelp("The server, e.g. http://localhost:8080.", valueName: "URL")) var server: String
    @Argument(help: "User name.") var user: String
    @Option(help: "Namespace (default: the server's).") var namespace: String?
    @Flag(help: "Read the password from the first line of stdin (otherwise it is asked on the terminal).")
    var passwordStdin = false
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

    func run() async throws {
        let url = try BackendOptions.url(server)
        let password =
            passwordStdin
            ? try PasswordInput.firstLineOfStdin()
            : try PasswordInput.ask("Password of \(user) on \(url.absoluteString): ")
        let client = MusterClient(serverURL: url, namespace: namespace, tokenStore: SessionFile.store)
        let session = await client.authWithInternal(username: user, password: password)
        if let error = session.error {
            throw ServerSession(server: url, stored: nil).failure(error)
        }
        if json {
            let stored = try SessionFile.load()
            return try Output.json(
                LoggedIn(
                    server: url.absoluteString, namespace: namespace, username: session.username ?? user,
                    expiresAt: stored?.expiresAt, session: SessionFile.url.path))
        }
        let place = url.absoluteString + (namespace.map { ", namespace \($0)" } ?? "")
        Output.line(
            "logged in as \(session.username ?? user) on \(place); the login is kept in \(SessionFile.url.path)")
    }
}
