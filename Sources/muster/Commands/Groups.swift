import ArgumentParser
import EventLog
import Foundation
import MusterWire

/// `muster groups`: named sets of users to send to.
struct Groups: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Define, list and remove groups of users.", subcommands: [Add.self, List.self, Remove.self])

    struct Add: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Define a group (again: replace its members); prints it as JSON.")

        @OptionGroup var options: BackendOptions
        @Argument(help: "Group name.") var name: String
        @Option(help: "Members, comma-separated user names.") var members: String
        @Option(help: "Namespace (default: default; on a server, the login's).") var namespace: String?

        func run() async throws {
            let group = Group(name: name, members: FormErrorOutput.list(members))
            try Output.json(
                try await options.run(namespace: namespace, creating: true) { try await $0.defineGroup(group) })
        }
    }

    struct Remove: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Remove a group; its members stay users. Prints {\"removed\": NAME}.")

        @OptionGroup var options: BackendOptions
        @Argument(help: "Group name.") var name: String
        @Option(help: "Namespace (default: default; on a server, the login's).") var namespace: String?

        func run() async throws {
            try await options.run(namespace: namespace) { try await $0.removeGroup(name) }
            try Output.json(["removed": name])
        }
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List the groups of a namespace.")

        @OptionGroup var options: BackendOptions
        @Option(help: "Namespace (default: default; on a server, the login's).") var namespace: String?

        func run() async throws {
            try await options.printRows(namespace: namespace) { try await $0.groups() }
        }
    }
}
