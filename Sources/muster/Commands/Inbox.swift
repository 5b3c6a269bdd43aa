import ArgumentParser
import EventLog
import Foundation

/// `muster inbox`: a user's pending messages.
struct Inbox: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "List a user's pending messages, oldest first.")

    @OptionGroup var options: BackendOptions
    @Argument(help: "User name (over HTTP: the logged-in user, the default).") var user: String?
    @Option(help: "Namespace (default: default; on a server, the login's).") var namespace: String?

    func run() async throws {
        try await options.printRows(namespace: namespace) { try await $0.inbox(user: user) }
    }
}
