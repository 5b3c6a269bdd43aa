import ArgumentParser
import EventLog
import Foundation
import Muster

extension PushTargetRegistered.Platform: ExpressibleByArgument {}

/// `muster devices`: the push targets of users.
struct Devices: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Register, list and remove the devices users receive pushes on.",
        subcommands: [Register.self, List.self, Remove.self])

    struct Register: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Register a device of a user (again: update it); prints it as JSON.")

        @OptionGroup var data: DataOptions
        @OptionGroup var remote: RemoteOptions
        @Option(help: "The device's user (over HTTP: the logged-in user, the default).") var user: String?
        @Option(help: "Device id, unique per user.") var deviceId: String
        @Option(help: "Device name people recognise.") var deviceName: String
        @Option(help: "Push platform: web, apns, fcm or mqtt.") var platform: PushTargetRegistered.Platform
        @Option(help: "The platform's push token.") var token: String?
        @Option(help: "Namespace.") var namespace = Names.defaultNamespace

        func run() async throws {
            if let session = try remote.session(data: data) { return try await run(on: session) }
            let target = PushTargetRegistered(
                user: try Devices.localUser(user), deviceId: deviceId, deviceName: deviceName, platform: platform,
                token: token)
            let log = try data.open(mustExist: false)
            defer { log.close() }
            try await Directory(log: log).register(target, namespace: namespace, actor: "cli")
            try Output.json(target)
        }
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List devices, of one user or of everyone.")

        @OptionGroup var data: DataOptions
        @OptionGroup var remote: RemoteOptions
        @Option(help: "Only this user's devices (over HTTP: the logged-in user's, always).") var user: String?
        @Option(help: "Namespace.") var namespace = Names.defaultNamespace
        @Flag(help: "Print one JSON array.") var json = false

        func run() async throws {
            if let session = try remote.session(data: data) { return try await run(on: session) }
            let log = try data.open()
            defer { log.close() }
            try Self.print(try Directory(log: log).devices(user: user, namespace: namespace), json: json)
        }

        static func print(_ devices: [PushTargetRegistered], json: Bool) throws {
            if json { return try Output.json(devices) }
            Output.table(
                ["USER", "DEVICE ID", "DEVICE NAME", "PLATFORM", "TOKEN"],
                devices.map { [$0.user, $0.deviceId, $0.deviceName, $0.platform.rawValue, $0.token ?? "-"] })
        }
    }

    struct Remove: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Unregister a device.")

        @OptionGroup var data: DataOptions
        @OptionGroup var remote: RemoteOptions
        @Option(help: "The device's user (over HTTP: the logged-in user, the default).") var user: String?
        @Option(help: "Device id.") var deviceId: String
        @Option(help: "Namespace.") var namespace = Names.defaultNamespace

        func run() async throws {
            if let session = try remote.session(data: data) { return try await run(on: session) }
            let user = try Devices.localUser(user)
            let log = try data.open()
            defer { log.close() }
            guard
                try await Directory(log: log).unregister(
                    user: user, deviceId: deviceId, namespace: namespace, actor: "cli")
            else {
                throw CommandFailure.invalid(
                    "user \(user) has no device \(deviceId) in namespace \(namespace); see muster devices list")
            }
            try Output.json(["removed": deviceId])
        }
    }

    /// `--user`, which a data directory needs: there is no logged-in user to default to.
    static func localUser(_ user: String?) throws -> String {
        guard let user else { throw CommandFailure.invalid("name the device's user: --user USER") }
        return user
    }
}
