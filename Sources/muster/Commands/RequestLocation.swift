import ArgumentParser
import EventLog
import Foundation
import MusterWire

/// `muster request-location`: asks a user's phones where they are.
struct RequestLocation: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "request-location",
        abstract: "Ask a user's phones where they are: a silent push to each; prints the request as JSON.",
        discussion: """
            Each APNs or FCM device of the user that a push source reaches gets a silent push (kind \
            locationRequest); its app publishes its location, which the rules see as any other report. The \
            request's id is the deliveries' message id (muster deliveries --message ID). A user with no such \
            device is refused (exit 2) and nothing is recorded.
            """)

    @OptionGroup var options: BackendOptions
    @Option(help: "The user whose phones are asked.") var user: String
    @Option(help: "Why, for the audit.") var reason: String?
    @Option(help: "Namespace (default: default; on a server, the login's).") var namespace: String?

    func run() async throws {
        let request = try await options.run(namespace: namespace) {
            try await $0.requestLocation(user: user, reason: reason)
        }
        try Output.json(request)
    }
}
