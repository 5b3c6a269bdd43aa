import ArgumentParser
import Foundation
import MusterClient

/// `muster whoami`: the stored login, as the server sees it.
struct Whoami: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Print the stored login: its server and the session keys (serverType, authValid, username, …).",
        discussion: "Asks the server whether the login is valid (refreshing the tokens if due); exits 1 if not.")

    @Flag(help: "Print one JSON object.") var json = false

    /// The keys printed.
    struct View: Encodable {
        var server: String
        var namespace: String
        var serverType: String?
        var authValid: Bool
        var username: String?
        var preferredUsername: String?
        var session: String
    }

    func run() async throws {
        guard let stored = try SessionFile.load(), let server = stored.server else {
            throw CommandFailure.failed("not logged in: muster login --server URL USER")
        }
        let remote = ServerSession(server: server, stored: stored)
        let verified = await remote.client.verifyAuthToken()
        if let error = verified.error, !error.requiresLogin { throw remote.failure(error) }
        let view = View(
            server: server.absoluteString, namespace: remote.namespace, serverType: verified.serverType?.rawValue,
            authValid: verified.authValid, username: verified.username ?? stored.username,
            preferredUsername: verified.preferredUsername ?? stored.preferredUsername, session: SessionFile.url.path)
        if json {
            try Output.json(view)
        } else {
            Output.table(
                ["KEY", "VALUE"],
                [
                    ["server", view.server], ["namespace", view.namespace], ["serverType", view.serverType ?? "-"],
                    ["authValid", String(view.authValid)], ["username", view.username ?? "-"],
                    ["preferredUsername", view.preferredUsername ?? "-"], ["session", view.session],
                ])
        }
        if !verified.authValid {
            throw remote.failure(verified.error ?? MusterClientError(code: .loginRequired, message: "not logged in"))
        }
    }
}
