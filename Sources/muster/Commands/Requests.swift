import ArgumentParser
import EventLog
import Foundation

/// `muster requests`: user-initiated request templates (ArsRCSRequest, the app's Start tab).
struct RequestTemplates: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "requests",
        abstract: "Store, list and remove request templates users answer unasked (muster respond --request NAME).",
        subcommands: [Put.self, List.self, Remove.self])

    struct Put: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Store a request template, replacing one of the same name; prints it as JSON.",
            discussion: "PAYLOAD_JSON holds the fields; --topic sets its responseTopic. Errors exit 2.")

        @OptionGroup var options: BackendOptions
        @Argument(help: "The request's name.") var name: String
        @Option(help: "Title shown in the Start tab.") var title: String
        @Option(help: "Body (subtitle) shown under the title.") var body: String
        @Option(help: "Response topic, /a/b/c.") var topic: String
        @Option(help: "Namespace (default: default; on a server, the login's).") var namespace: String?
        @Argument(help: ArgumentHelp("The payload JSON, or - for stdin.", valueName: "PAYLOAD_JSON|-"))
        var payload: String

        func run() async throws {
            try await options.submit(payload, namespace: namespace) {
                try await $0.putRequest(name: name, title: title, body: body, topic: topic, payload: $1)
            }
        }
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List the request templates of a namespace.")

        @OptionGroup var options: BackendOptions
        @Option(help: "Namespace (default: default; on a server, the login's).") var namespace: String?

        func run() async throws {
            try await options.printRows(namespace: namespace) { try await $0.requests() }
        }
    }

    struct Remove: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Remove a request template: no longer offered or answered; prints {\"removed\": NAME}.")

        @OptionGroup var options: BackendOptions
        @Argument(help: "The request's name.") var name: String
        @Option(help: "Namespace (default: default; on a server, the login's).") var namespace: String?

        func run() async throws {
            try await options.run(namespace: namespace) { try await $0.removeRequest(name: name) }
            try Output.json(["removed": name])
        }
    }
}
