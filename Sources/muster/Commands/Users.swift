import ArgumentParser
import EventLog
import Foundation
import Muster
import MusterWire

/// `muster users`: the people of a namespace.
struct Users: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract:
            "Add, change, list and remove users (the first admin of a namespace is made here), and set their passwords.",
        subcommands: [Add.self, SetProfile.self, List.self, Password.self, Remove.self])

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
        @Option(help: "Namespace (default: default; on a server, the login's).") var namespace: String?

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

    struct SetProfile: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "set",
            abstract: "Change a user's profile; prints the user as JSON.",
            discussion: """
                Only what is given changes; an empty value ("") clears an email, name or phone. Over HTTP an \
                administrator changes anyone's, anyone else their own but --admin; an administrator cannot \
                take --no-admin for themselves.
                """)

        @OptionGroup var options: BackendOptions
        @Argument(help: "User name.") var name: String
        @Flag(inversion: .prefixedNo, help: "Make the user an administrator of the namespace, or not.") var admin: Bool?
        @Option(help: "E-mail address.") var email: String?
        @Option(help: "First name.") var firstName: String?
        @Option(help: "Last name.") var lastName: String?
        @Option(help: "Phone number.") var phone: String?
        @Option(name: .customLong("tz"), help: "IANA time zone, e.g. Europe/Paris (daily quotas count in it).")
        var timeZone: String?
        @Option(help: "Namespace (default: default; on a server, the login's).") var namespace: String?

        func run() async throws {
            let changes = UserChanges(
                email: email, firstName: firstName, lastName: lastName, phone: phone, timeZone: timeZone,
                isAdmin: admin)
            guard !changes.isEmpty else {
                throw CommandFailure.invalid(
                    "nothing to change: give --admin or --no-admin, --email, --first-name, --last-name, --phone or --tz"
                )
            }
            try Output.json(try await options.run(namespace: namespace) { try await $0.changeUser(name, changes) })
        }
    }

    struct Password: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Set a user's password anew; their sessions end. Prints the user as JSON.",
            discussion: """
                The new password is asked on the terminal, or read from stdin with --password-stdin. Over HTTP \
                an administrator sets anyone's of the namespace; your own takes your current password too (on \
                stdin, the current one first, then the new one), and your other sessions end, not this one.
                """)

        @OptionGroup var options: BackendOptions
        @Argument(help: "User name.") var name: String
        @Flag(help: "Read the password from stdin, one line (two when the current one is needed).")
        var passwordStdin = false
        @Option(help: "Namespace (default: default; on a server, the login's).") var namespace: String?

        func run() async throws {
            let user = try await options.run(namespace: namespace) { backend in
                let needsCurrent = backend.needsCurrentPassword(toChange: name)
                var current: String?
                let password: String
                if passwordStdin {
                    let lines = try PasswordInput.linesOfStdin(
                        needsCurrent ? ["current password", "new password"] : ["new password"])
                    (current, password) = (needsCurrent ? lines[0] : nil, lines[lines.count - 1])
                } else {
                    if needsCurrent { current = try PasswordInput.ask("Current password of \(name): ") }
                    password = try PasswordInput.ask("New password of \(name): ")
                }
                return try await backend.changePassword(of: name, to: password, current: current)
            }
            try Output.json(user)
        }
    }

    struct Remove: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Remove a user; prints what went with them as JSON.",
            discussion: """
                Their sessions end, their devices are unregistered and they leave their groups; the messages \
                waiting for them are withdrawn. What they did stays in the log and the audit, under their \
                name, which is therefore not given to anyone again. Over HTTP an administrator removes others, not themselves.
                """)

        @OptionGroup var options: BackendOptions
        @Argument(help: "User name.") var name: String
        @Option(help: "Namespace (default: default; on a server, the login's).") var namespace: String?

        func run() async throws {
            try Output.json(try await options.run(namespace: namespace) { try await $0.removeUser(name) })
        }
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List the users of a namespace.")

        @OptionGroup var options: BackendOptions
        @Option(help: "Namespace (default: default; on a server, the login's).") var namespace: String?

        func run() async throws {
            try await options.printRows(namespace: namespace) { try await $0.users() }
        }
    }
}
