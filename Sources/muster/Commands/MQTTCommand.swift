import ArgumentParser
import Foundation
import MusterClient
import MusterWire

/// `muster mqtt`: the MQTT bridge of a running server (`serve --mqtt`).
struct MQTTCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "mqtt",
        abstract: "The MQTT bridge of a running server: its connection, and settings messages to devices.",
        subcommands: [Status.self, Settings.self])

    struct Status: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "The broker, the connection, the devices listened to and what the bridge did, as JSON.")

        @OptionGroup var options: BackendOptions

        func run() async throws {
            let session = try MQTTCommand.server(options)
            try Output.json(try await session.call { try await $0.mqttStatus() })
        }
    }

    struct Settings: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: """
                Publish a settings message to a user's MQTT device (seed 001) and print its receipt (null when it \
                sent none within the server's --mqtt-receipt-timeout, 30 s by default).
                """)

        @OptionGroup var options: BackendOptions
        @Option(help: "The device's user.") var user: String
        @Argument(help: "The device id.") var device: String
        @Argument(
            help: """
                Settings as KEY=VALUE: SubscribeTopic=a/b,c/d PublishTopic=x/y OnIncoming=true OnInterval=false \
                IntervalOnChange=false OnThreshold=false IntervalCycle=500 ThresholdValue=100.
                """)
        var settings: [String]

        func run() async throws {
            guard !settings.isEmpty else { throw ValidationError("give at least one KEY=VALUE setting") }
            let session = try MQTTCommand.server(options)
            try Output.json(
                try await session.call { try await $0.sendMQTTSettings(settings, deviceId: device, user: user) })
        }
    }

    /// The server the command talks to: the bridge lives in `muster serve`, not in a data directory.
    static func server(_ options: BackendOptions) throws -> ServerSession {
        guard let session = try options.session() else {
            throw CommandFailure.invalid(
                "muster mqtt talks to a running server's bridge: give --server URL (after muster login), not --data")
        }
        return session
    }
}
