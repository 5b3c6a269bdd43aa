import ArgumentParser
import EventLog
import Foundation
import Muster

/// `muster groups`: named sets of users to send to.
struct Groups: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Define and list groups of users.", subcommands: [Add.self, List.self])

    struct Add: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Define a group (again: replace its members); prints it as JSON.")

        @OptionGroup var data: DataOptions
        @OptionGroup var remote: RemoteOptions
        @Argument(help: "Group name.") var name: String
        @Option(help: "Members, comma-separated user names.") var members: String
        @Option(help: "Namespace.") var namespace = Names.defaultNamespace

        func run() async throws {
            let names = FormErrorOutput.list(members)
            if let session = try remote.session(data: data) { return try await run(on: session, members: names) }
            let log = try data.open(mustExist: false)
            defer { log.close() }
            let group = try await Directory(log: log).defineGroup(
                name, members: names, namespace: namespace, actor: "cli")
            try Output.json(group)
        }
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List the groups of a namespace.")

        @OptionGroup var data: DataOptions
        @OptionGroup var remote: RemoteOptions
        @Option(help: "Namespace.") var namespace = Names.defaultNamespace
        @Flag(help: "Print one JSON array.") var json = false

        func run() async throws {
            if let session = try remote.session(data: data) { return try await run(on: session) }
            let log = try data.open()
            defer { log.close() }
            try Self.print(try Directory(log: log).groups(namespace: namespace), json: json)
        }

        static func print(_ groups: [GroupDefined], json: Bool) throws {
            if json { return try Output.json(groups) }
            Output.table(["GROUP", "MEMBERS"], groups.map { [$0.name, $0.members.joined(separator: ",")] })
        }
    }
}
