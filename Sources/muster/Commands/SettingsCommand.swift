import ArgumentParser
import EventLog
import Foundation
import Muster

extension Setting: ExpressibleByArgument {}

/// `muster settings`: namespace settings, each change an event.
struct SettingsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "settings", abstract: "Set and list namespace settings.", subcommands: [Set.self, List.self])

    struct Set: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Set a setting (unset clears dailyNotificationLimit); prints it as JSON.",
            discussion: "Settings: \(Setting.allCases.map(\.rawValue).joined(separator: ", ")).")

        @OptionGroup var data: DataOptions
        @OptionGroup var remote: RemoteOptions
        @Argument(help: "The setting.") var key: Setting
        @Argument(help: "Its new value.") var value: String
        @Option(help: "Namespace.") var namespace = Names.defaultNamespace

        func run() async throws {
            if let session = try remote.session(data: data) { return try await run(on: session) }
            let log = try data.open(mustExist: false)
            defer { log.close() }
            let stored = try await Settings(log: log).set(key, to: value, namespace: namespace, actor: "cli")
            try Output.json(Settings.Entry(key: key, value: stored, isDefault: false))
        }
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List every setting with its value.")

        @OptionGroup var data: DataOptions
        @OptionGroup var remote: RemoteOptions
        @Option(help: "Namespace.") var namespace = Names.defaultNamespace
        @Flag(help: "Print one JSON array.") var json = false

        func run() async throws {
            if let session = try remote.session(data: data) { return try await run(on: session) }
            let log = try data.open()
            defer { log.close() }
            try Self.print(try Settings(log: log).list(namespace: namespace), json: json)
        }

        static func print(_ entries: [Settings.Entry], json: Bool) throws {
            if json { return try Output.json(entries) }
            Output.table(
                ["SETTING", "VALUE", ""],
                entries.map { [$0.key.rawValue, $0.value ?? "unset", $0.isDefault ? "(default)" : ""] })
        }
    }
}
