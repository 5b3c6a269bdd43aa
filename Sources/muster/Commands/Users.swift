import ArgumentParser
import EventLog
import Foundation
import Muster
import MusterWire

/// `muster users`: the people of a namespace.
struct Users: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Add and list users (the first admin of a namespace is made here).",
        subcommands: [Add.self, List.self])

    struct Add: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Add a user; prints the user as JSON.")

        @OptionGroup var options: BackendOptions
        @Argument(help: "User name.") var name: String
        @Flag(help: "Read the password from the first line of stdin.") var passwordStdin = false
        @Flag(help: "Make the user an administrator of the namespace.") var admin = false
        @Option(help: "E-mail address.") var email: String?
        @Option(help: "First name.") var firstName: String?
        @Option(help: "Last name.") var lastName: String?
        @Option(help: "Phone number.") var phone: String?
        @Option(name: .customLong("tz"), help: "IANA time zone, e.g. Europe/Paris (daily quotas count in it).")
        var timeZone = "UTC"
        @Option(help: "Namespace.") var namespace = Names.defaultNamespace

        func run() async throws {
            let password = passwordStdin ? try PasswordInput.firstLineOfStdin() : nil
            let user = User(
                username: name, email: email, firstName: firstName, lastName: lastName, phone: phone, isAdmin: admin,
                timeZone: timeZone)
            try Output.json(
                try await options.run(namespace: namespace, creating: true) {
                    try await $0.addUser(user, password: password)
                })
        }
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List the users of a namespace.")

        @OptionGroup var options: BackendOptions
        @Option(help: "Namespace.") var namespace = Names.defaultNamespace

        func run() async throws {
            try await options.printRows(namespace: namespace) { try await $0.users() }
        }
    }
}
