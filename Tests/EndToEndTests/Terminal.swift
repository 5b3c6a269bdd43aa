import EventLogTesting
import Foundation
import Testing

/// Someone at a terminal with a session file of their own and no `MUSTER_DATA`: what `muster login` stores
/// there decides where the domain verbs act.
struct Terminal {
    let session: URL

    init(_ session: URL) { self.session = session }

    var environment: [String: String] {
        var environment = ProcessInfo.processInfo.environment
        environment["MUSTER_DATA"] = nil
        environment["MUSTER_SESSION"] = session.path
        return environment
    }

    func run(_ arguments: [String], stdin: String = "") async throws -> MusterProcess.Outcome {
        try await MusterProcess.run(arguments, stdin: stdin, environment: environment)
    }

    /// `muster login` with the password on stdin; fails the test unless it succeeds.
    func login(_ server: URL, _ user: String, password: String) async throws {
        let login = try await run(
            ["login", "--server", server.absoluteString, user, "--password-stdin"], stdin: password + "\n")
        try #require(login.status == 0, "\(login)")
    }

    /// ada, the server's administrator, and joe, a user she adds (password "secret-joe"), each logged in at a
    /// terminal of their own under `work`.
    static func adaAndJoe(on server: ServerProcess, in work: TemporaryDirectory) async throws -> (Terminal, Terminal) {
        let ada = Terminal(work.url.appendingPathComponent("ada/session.json"))
        let joe = Terminal(work.url.appendingPathComponent("joe/session.json"))
        try await ada.login(server.base, "ada", password: "secret-ada")
        let added = try await ada.run(["users", "add", "joe", "--password-stdin"], stdin: "secret-joe\n")
        try #require(added.status == 0, "\(added)")
        try await joe.login(server.base, "joe", password: "secret-joe")
        return (ada, joe)
    }
}
