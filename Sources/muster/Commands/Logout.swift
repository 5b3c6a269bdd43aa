import ArgumentParser
import Foundation
import MusterClient

/// `muster logout`: ends the stored login.
struct Logout: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Log out: the server revokes the stored login's tokens, and the login is forgotten.")

    @Flag(help: #"Print one JSON object: {"loggedOut","server"?,"username"?} (loggedOut false: there was no login)."#)
    var json = false

    /// What `--json` prints.
    struct LoggedOut: Encodable {
        /// False when no login was stored.
        var loggedOut: Bool
        /// The server the login was to; nil when unknown.
        var server: String?
        var username: String?
    }

    func run() async throws {
        guard let stored = try SessionFile.load() else {
            return json ? try Output.json(LoggedOut(loggedOut: false)) : Output.line("not logged in")
        }
        guard let server = stored.server else {
            try SessionFile.store.clear()
            if json { return try Output.json(LoggedOut(loggedOut: true, username: stored.username)) }
            return Output.line("forgot a login to an unknown server")
        }
        let session = ServerSession(server: server, stored: stored)
        let result = await session.client.logout()
        // The client forgot the tokens whatever the server said; a server that was not told still honours them.
        if let error = result.error { throw CommandFailure.failed(error.message) }
        if json {
            return try Output.json(
                LoggedOut(loggedOut: true, server: server.absoluteString, username: stored.username))
        }
        Output.line("logged out \(stored.username ?? "") from \(server.absoluteString)")
    }
}
