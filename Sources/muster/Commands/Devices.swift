import ArgumentParser
import EventLog
import Foundation
import MusterWire

extension PushTarget.Platform: ExpressibleByArgument {}

/// `muster devices`: the push targets of users.
struct Devices: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Register, list and remove the devices users receive pushes on; their trace logging.",
        subcommands: [Register.self, List.self, Remove.self, TraceLogging.self])

    struct Register: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Register a device of a user (again: update it); prints it as JSON.")

        @OptionGroup var options: BackendOptions
        @Option(help: "The device's user (over HTTP: the logged-in user, the default).") var user: String?
        @Option(help: "Device id, unique per user.") var deviceId: String
        @Option(help: "Device name people recognise.") var deviceName: String
        @Option(help: "Push platform: web, apns, fcm or mqtt.") var platform: PushTarget.Platform
        @Option(help: "The platform's push token; for mqtt, the device's SubscribeTopic (where it receives).")
        var token: String?
        @Option(help: "For mqtt only (and required there): the device's PublishTopic (where it sends).")
        var publishTopic: String?
        @Option(help: "Namespace (default: default; on a server, the login's).") var namespace: String?

        func run() async throws {
            // Without --user a data directory refuses the device: it is not created for that.
            let device = try await options.run(namespace: namespace, creating: user != nil) {
                try await $0.register(
                    user: user, deviceId: deviceId, deviceName: deviceName, platform: platform, token: token,
                    publishTopic: publishTopic)
            }
            try Output.json(device)
        }
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List devices, of one user or of everyone.")

        @OptionGroup var options: BackendOptions
        @Option(help: "Only this user's devices (over HTTP: the logged-in user's; an administrator may name another).")
        var user: String?
        @Option(help: "Namespace (default: default; on a server, the login's).") var namespace: String?

        func run() async throws {
            try await options.printRows(namespace: namespace) { try await $0.devices(user: user) }
        }
    }

    struct Remove: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Unregister a device: nothing more is pushed to it (a lost phone); prints {\"removed\": ID}.")

        @OptionGroup var options: BackendOptions
        @Option(
            help: "The device's user (over HTTP: the logged-in user, the default; an administrator may name another).")
        var user: String?
        @Option(help: "Device id.") var deviceId: String
        @Option(help: "Namespace (default: default; on a server, the login's).") var namespace: String?

        func run() async throws {
            try await options.run(namespace: namespace) { try await $0.unregister(deviceId: deviceId, user: user) }
            try Output.json(["removed": deviceId])
        }
    }

    struct TraceLogging: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "trace-logging",
            abstract: "Show or set whether a device's live stream carries the rules' decisions not to act.",
            discussion: """
                Seed 004's trace logging for one device: on, off, or namespace (follow the namespace's \
                traceLogging setting, the default). Without a value, shows it. Prints \
                {"deviceId","device","namespace","effective"}: the device's own choice (null when it follows the \
                namespace), the namespace's setting, and what the device's stream does.
                """)

        enum Choice: String, ExpressibleByArgument, CaseIterable {
            case on, off, namespace
        }

        @OptionGroup var options: BackendOptions
        @Option(help: "The device's user (over HTTP: the logged-in user, the default).") var user: String?
        @Option(help: "Device id.") var deviceId: String
        @Argument(help: "on, off, or namespace; none: show it.") var choice: Choice?
        @Option(help: "Namespace (default: default; on a server, the login's).") var namespace: String?

        func run() async throws {
            let trace = try await options.run(namespace: namespace) { backend in
                guard let choice else { return try await backend.traceLogging(user: user, deviceId: deviceId) }
                let enabled: Bool? = choice == .namespace ? nil : choice == .on
                return try await backend.setTraceLogging(enabled, user: user, deviceId: deviceId)
            }
            try Output.json(trace)
        }
    }
}
