import ArgumentParser
import EventLog
import Foundation

/// `muster payloads`: named payloads (ArsRCSPayload) that sends refer to with `payloadName`.
struct Payloads: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Store, read and remove named payloads (sent indirectly with {\"responseTopic\", \"payloadName\"}).",
        subcommands: [Put.self, List.self, Get.self, Remove.self])

    struct Put: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Store a payload under a name, replacing what it held; prints {name, replaced}.",
            discussion: "The payload is validated: errors exit 2 (with --json: {\"errors\":[…]} on stdout).")

        @OptionGroup var options: BackendOptions
        @Argument(help: "The payload's name.") var name: String
        @Option(help: "Namespace (default: default; on a server, the login's).") var namespace: String?
        @Argument(help: ArgumentHelp("The payload JSON, or - for stdin.", valueName: "PAYLOAD_JSON|-"))
        var payload: String

        func run() async throws {
            try await options.submit(payload, namespace: namespace) {
                try await $0.putPayload(name: name, payload: $1)
            }
        }
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "List the named payloads by name: a table, or JSON (each with its payload) with --json.")

        @OptionGroup var options: BackendOptions
        @Option(help: "Namespace (default: default; on a server, the login's).") var namespace: String?

        func run() async throws {
            try await options.printRows(namespace: namespace) { try await $0.payloads() }
        }
    }

    struct Get: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Print a named payload's JSON as stored.")

        @OptionGroup var options: BackendOptions
        @Argument(help: "The payload's name.") var name: String
        @Option(help: "Namespace (default: default; on a server, the login's).") var namespace: String?

        func run() async throws {
            Output.line(try await options.run(namespace: namespace) { try await $0.payload(name: name) })
        }
    }

    struct Remove: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Remove a named payload; prints {\"removed\": NAME}.",
            discussion: """
                New sends can no longer name it. Messages sent by its name before still show it as it was, \
                until a payload is stored under that name again.
                """)

        @OptionGroup var options: BackendOptions
        @Argument(help: "The payload's name.") var name: String
        @Option(help: "Namespace (default: default; on a server, the login's).") var namespace: String?

        func run() async throws {
            try await options.run(namespace: namespace) { try await $0.removePayload(name: name) }
            try Output.json(["removed": name])
        }
    }
}
