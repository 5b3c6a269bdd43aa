import ArgumentParser
import Foundation
import MusterWire

/// `muster sessions`: where a user is logged in, and ending a session from elsewhere (a lost phone).
struct SessionsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sessions",
        abstract: "List a user's open sessions and end one (a lost phone, a shared computer).",
        subcommands: [List.self, End.self])

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "List the sessions of a user that have not ended: device, expiry, and which one is yours.",
            discussion: """
                Over HTTP (after muster login): yours, another user's (--user) or everyone's (--all) for an \
                administrator. On a data directory: everyone's of the namespace, or --user's.
                """)

        @OptionGroup var options: BackendOptions
        @Option(help: "Whose sessions (over HTTP: yours when left out; another's for administrators).")
        var user: String?
        @Flag(help: "Every user's sessions (over HTTP: for administrators; on a data directory, as without --user).")
        var all = false
        @Option(help: "Namespace (default: default; on a server, the login's).") var namespace: String?

        func validate() throws {
            if all, user != nil { throw ValidationError("--all and --user: name a user or ask for all, not both") }
        }

        func run() async throws {
            try await options.printRows(namespace: namespace) { try await $0.sessions(of: user, all: all) }
        }
    }

    struct End: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "End a session: its device or browser is logged out at its next request. Prints {\"ended\": ID}.",
            discussion: "Over HTTP one of your own sessions, or for an administrator anyone's of the namespace.")

        @OptionGroup var options: BackendOptions
        @Argument(help: "The session's id, as muster sessions list shows it.") var id: String
        @Option(help: "Namespace (default: default; on a server, the login's).") var namespace: String?

        func run() async throws {
            guard let sessionId = UUID(uuidString: id) else {
                throw CommandFailure.invalid("session id \(id) is not a UUID; see muster sessions list")
            }
            try await options.run(namespace: namespace) { try await $0.endSession(sessionId) }
            try Output.json(["ended": sessionId.uuidString.lowercased()])
        }
    }
}
