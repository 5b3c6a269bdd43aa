import ArgumentParser
import EventLog
import Foundation
import Muster

/// `muster users`: the people of a namespace.
struct Users: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Add and list users (the first admin of a namespace is made here).",
        subcommands: [Add.self, List.self])

    struct Add: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Add a user; prints the user as JSON.")

        @OptionGroup var data: DataOptions
        @OptionGroup var remote: RemoteOptions
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
            if let session = try remote.session(data: data) { return try await run(on: session, password: password) }
            let log = try data.open(mustExist: false)
            defer { log.close() }
            let user = try await Directory(log: log).addUser(
                name, password: password, email: email, timeZone: timeZone, isAdmin: admin, firstName: firstName,
                lastName: lastName, phone: phone, namespace: namespace, actor: "cli")
            try Output.json(UserRow(user, namespace: namespace))
        }
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List the users of a namespace.")

        @OptionGroup var data: DataOptions
        @OptionGroup var remote: RemoteOptions
        @Option(help: "Namespace.") var namespace = Names.defaultNamespace
        @Flag(help: "Print one JSON array.") var json = false

        func run() async throws {
            if let session = try remote.session(data: data) { return try await run(on: session) }
            let log = try data.open()
            defer { log.close() }
            let rows = try Directory(log: log).users(namespace: namespace).map { UserRow($0, namespace: namespace) }
            try Self.print(rows, json: json)
        }

        static func print(_ rows: [UserRow], json: Bool) throws {
            if json { return try Output.json(rows) }
            Output.table(
                ["NAME", "EMAIL", "TIME ZONE", "ADMIN", "PASSWORD"],
                rows.map {
                    [
                        $0.name, $0.email ?? "-", $0.timeZone, $0.isAdmin ? "yes" : "no",
                        $0.hasPassword.map { $0 ? "set" : "-" } ?? "?",
                    ]
                })
        }
    }

    /// A user as printed: never the password hash.
    struct UserRow: Encodable {
        var name: String
        var namespace: String
        var email: String?
        var firstName: String?
        var lastName: String?
        var phone: String?
        var timeZone: String
        var isAdmin: Bool
        /// Nil when unknown: a server does not say.
        var hasPassword: Bool?

        init(_ user: UserCreated, namespace: String) {
            name = user.name
            self.namespace = namespace
            email = user.email
            firstName = user.firstName
            lastName = user.lastName
            phone = user.phone
            timeZone = user.timeZone
            isAdmin = user.isAdmin
            hasPassword = user.password != nil
        }
    }
}
