import ArgumentParser
import Foundation
import MusterClient

/// `muster logout`: ends the stored login.
struct Logout: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Log out: the server revokes the stored login's tokens, and the login is forgotten.")

    func run() async throws {
        guard let stored = try SessionFile.load() else { return Output.line("not logged in") }
        guard let server = stored.server else {
            try SessionFile.store.clear()
            return Output.line("forgot a login to an unknown server")
        }
        let session = ServerSession(server: server, stored: stored)
        let result = await session.client.logout()
        // The client forgot the tokens whatever the server said; a server that was not told still honours them.
        if let error = result.error { throw CommandFailure.failed(error.message) }
        Output.line("logged out \(stored.username ?? "") from \(server.absoluteString)")
    }
}
