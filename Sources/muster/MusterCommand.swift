import ArgumentParser
import EventLog
import Foundation
import Muster

/// `muster`: the operator's command line for a Muster data directory.
@main
struct MusterCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "muster",
        abstract: "Muster: people in the loop of automated decisions, on an append-only event log.",
        discussion: """
            Every command takes --data DIR (or MUSTER_DATA; default ./muster-data), after its name or before \
            it (muster --data DIR users list). Every verb takes --json.
            The domain verbs and events (users, groups, devices, sessions, send, inbox, respond, listen, payloads, requests, \
            documents, settings, audit, push-sources, deliveries, request-location, geotriggers, notices, \
            location, beacon, transition, counters, quota, areas import, areas list, areas monitored) also act on a running \
            server as the user of muster login: with --server URL, or when a login is stored and neither --data \
            nor MUSTER_DATA is given.
            Exit status: 0 ok, 1 runtime failure, 2 bad usage or invalid input, 3 conflict.
            """,
        version: "muster \(MusterRelease.version), store format \(DataOptions.configuration().formatVersion)",
        subcommands: [
            Append.self, Events.self, Import.self, Status.self, Rebuild.self, Migrate.self,
            Verify.self, CheckpointCommand.self, Backup.self, Restore.self, Serve.self, Users.self, Groups.self,
            Devices.self,
            Send.self, Withdraw.self, Sends.self, Inbox.self, Respond.self, Listen.self, Payloads.self,
            RequestTemplates.self,
            Documents.self, Audit.self, SettingsCommand.self, Login.self, Logout.self, Whoami.self,
            SessionsCommand.self,
            AreasCommand.self, GeotriggersCommand.self, Location.self, Beacon.self, Transition.self, Counters.self,
            Quota.self, NoticesCommand.self,
            PushSourcesCommand.self, DeliveriesCommand.self, RequestLocation.self, MQTTCommand.self,
            ClusterCommand.self,
        ]
    )

    /// Parses, runs, and maps every failure to one stderr line and the contract's exit status.
    static func main() async {
        do {
            if let rounds = ProcessInfo.processInfo.environment[PasswordHash.roundsVariable],
                PasswordHash.rounds(named: rounds) == nil
            {
                throw CommandFailure.invalid(
                    "\(PasswordHash.roundsVariable)=\(rounds): expected a power of two from 1024 to 1048576 (scrypt N)")
            }
            let arguments = try dataAfterSubcommand(Array(CommandLine.arguments.dropFirst()))
            try checkSubcommandNames(arguments)
            var command = try parseWithNegativeNumbers(arguments)
            if var async = command as? any AsyncParsableCommand {
                try await async.run()
            } else {
                try command.run()
            }
        } catch {
            exit(with: error)
        }
    }

    /// `muster --data D users list` read as `muster users list --data D`: `--data` belongs to the commands that
    /// take a data directory, and is accepted before the subcommand's name as well.
    static func dataAfterSubcommand(_ arguments: [String]) throws -> [String] {
        var leading: [String] = []
        var rest = arguments[...]
        while let first = rest.first {
            if first == "--data" {
                guard rest.count > 1 else {
                    throw CommandFailure.invalid("--data needs a directory: muster --data DIR COMMAND")
                }
                leading += rest.prefix(2)
                rest = rest.dropFirst(2)
            } else if first.hasPrefix("--data=") {
                leading.append(first)
                rest = rest.dropFirst()
            } else {
                break
            }
        }
        guard !leading.isEmpty else { return arguments }
        var command: any ParsableCommand.Type = MusterCommand.self
        var path: [String] = []
        while let name = rest.first,
            let subcommand = command.configuration.subcommands.first(where: { $0._commandName == name })
        {
            path.append(name)
            rest = rest.dropFirst()
            command = subcommand
        }
        if path.isEmpty, !(rest.first?.hasPrefix("-") ?? false) {
            // Else the parser would blame the moved --data rather than the missing or unknown command.
            throw CommandFailure.invalid(
                rest.first.map { "no command \($0); see muster --help" }
                    ?? "--data DIR needs a command after it, e.g. muster --data DIR users list")
        }
        return path + leading + rest
    }

    /// Parses `arguments`; when that fails and one is a negative number standing where a positional value goes
    /// (`muster settings set dailyNotificationLimit -5`), which the parser takes for an option, parses again with
    /// those numbers after `--`, in their order. What fails again is reported as the first parse's failure. A
    /// number right after an option is left where it is: it was meant as that option's value.
    static func parseWithNegativeNumbers(_ arguments: [String]) throws -> any ParsableCommand {
        do {
            return try parseAsRoot(arguments)
        } catch {
            guard !arguments.contains("--") else { throw error }
            var kept: [String] = []
            var numbers: [String] = []
            for (index, argument) in arguments.enumerated() {
                let afterOption = index > 0 && arguments[index - 1].hasPrefix("-")
                if !afterOption, isNegativeNumber(argument) { numbers.append(argument) } else { kept.append(argument) }
            }
            guard !numbers.isEmpty, let command = try? parseAsRoot(kept + ["--"] + numbers) else { throw error }
            return command
        }
    }

    /// `-5`, `-0.5`, `-1e3`: a number, never one of Muster's options (none is a digit).
    static func isNegativeNumber(_ argument: String) -> Bool {
        argument.count > 1 && argument.hasPrefix("-") && Double(argument) != nil
    }

    /// `muster push-sources add pigeon …`: a word where a group of commands expects one of its subcommands is
    /// refused naming the choices (the parser would blame whatever option follows).
    static func checkSubcommandNames(_ arguments: [String]) throws {
        var command: any ParsableCommand.Type = MusterCommand.self
        var path: [String] = []
        var rest = arguments[...]
        while let name = rest.first {
            let subcommands = command.configuration.subcommands
            guard !subcommands.isEmpty, !name.hasPrefix("-") else { return }
            guard let subcommand = subcommands.first(where: { $0._commandName == name }) else {
                // The root, and a group with a default subcommand (the word may be its argument), are the
                // parser's to judge.
                let configuration = command.configuration
                let hasDefault = configuration.defaultSubcommand.map { _ in true } ?? false
                guard !path.isEmpty, !hasDefault else { return }
                let choices = subcommands.map { $0._commandName }.joined(separator: ", ")
                throw CommandFailure.invalid(
                    "\(path.joined(separator: " ")) \(name): expected one of \(choices); see muster \(path.joined(separator: " ")) --help"
                )
            }
            path.append(name)
            command = subcommand
            rest = rest.dropFirst()
        }
    }

    static func exit(with error: any Error) -> Never {
        if let (status, message) = ExitStatus.of(error) {
            FileHandle.standardError.write(Data("muster: \(message)\n".utf8))
            Foundation.exit(status)
        }
        let code = exitCode(for: error)
        if code == .success {
            print(fullMessage(for: error))  // --help, --version
            Foundation.exit(0)
        }
        var message = fullMessage(for: error)
        if message.hasPrefix("Error: ") { message.removeFirst("Error: ".count) }
        FileHandle.standardError.write(Data("muster: \(message)\n".utf8))
        // Usage errors exit 2 as the contract says (the parser's own default is 64).
        Foundation.exit(code == .validationFailure || code.rawValue == 64 ? 2 : code.rawValue == 0 ? 0 : 1)
    }
}
