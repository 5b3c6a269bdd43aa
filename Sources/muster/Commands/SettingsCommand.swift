import ArgumentParser
import EventLog
import Foundation
import Muster

extension Setting: ExpressibleByArgument {}

/// `muster settings`: namespace settings, each change an event.
struct SettingsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "settings", abstract: "Set, reset and list namespace settings.",
        subcommands: [Set.self, Reset.self, List.self])

    struct Set: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Set a setting (unset clears dailyNotificationLimit); prints it as JSON.",
            discussion: "Settings: \(Setting.allCases.map(\.rawValue).joined(separator: ", ")).")

        @OptionGroup var options: BackendOptions
        @Argument(help: "The setting.") var key: Setting
        @Argument(help: "Its new value.") var value: String
        @Option(help: "Namespace (default: default; on a server, the login's).") var namespace: String?

        func run() async throws {
            try Output.json(
                try await options.run(namespace: namespace, creating: true) { try await $0.set(key, to: value) })
        }
    }

    struct Reset: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Put a setting back to its default; prints it as JSON.",
            discussion: "It then follows the default, also when a later release changes it.")

        @OptionGroup var options: BackendOptions
        @Argument(help: "The setting.") var key: Setting
        @Option(help: "Namespace (default: default; on a server, the login's).") var namespace: String?

        func run() async throws {
            try Output.json(try await options.run(namespace: namespace) { try await $0.reset(key) })
        }
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List every setting with its value.")

        @OptionGroup var options: BackendOptions
        @Option(help: "Namespace (default: default; on a server, the login's).") var namespace: String?

        func run() async throws {
            try await options.printRows(namespace: namespace) { try await $0.settings() }
        }
    }
}
