import ArgumentParser
import EventLog
import Foundation
import MusterWire

/// `muster push-sources`: the namespace's push sources — the APNs, FCM and Web Push credentials the server sends
/// pushes with.
struct PushSourcesCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "push-sources",
        abstract: "Add, list, remove and test the push sources (APNs, FCM, Web Push) pushes are sent through.",
        discussion: """
            A source's secret (the .p8 key, the .p12 and its password, the service account, the VAPID private key) \
            is kept in the data directory's secret store, never in the event log; list shows its SHA-256 \
            fingerprint.
            """,
        subcommands: [Add.self, List.self, Remove.self, Test.self])

    /// What every `add` takes: where, the source's name and the provider's address.
    struct Common: ParsableArguments {
        @OptionGroup var options: BackendOptions
        @Argument(help: "The source's name, unique in the namespace (adding it again replaces it).") var name: String
        @Option(
            help: ArgumentHelp(
                "The provider's address when not its public one, e.g. https://127.0.0.1:8443.", valueName: "URL"))
        var endpoint: String?
        @Option(help: "Namespace (default: default; on a server, the login's).") var namespace: String?

        /// Configures the source `body` describes and prints it as JSON.
        func configure(_ body: PushSourceBody) async throws {
            let source = try await options.run(namespace: namespace, creating: true) {
                try await $0.configurePushSource(body)
            }
            try Output.json(source)
        }
    }

    struct Add: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Add (or replace) a push source; prints it as JSON.",
            subcommands: [APNs.self, FCM.self, WebPush.self])
    }

    struct APNs: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "apns",
            abstract: "An Apple Push Notification service source: a .p8 token key, or a .p12 certificate.",
            discussion: """
                Token authentication: --key-file AuthKey_K.p8 --key-id K --team-id T. Certificate authentication: \
                --certificate cert.p12 --password-stdin. Give one of the two.
                """)

        @OptionGroup var common: Common
        @Option(help: ArgumentHelp("The .p8 key file (token authentication).", valueName: "FILE")) var keyFile: String?
        @Option(help: "The key's 10-character id.") var keyId: String?
        @Option(help: "The Apple developer team id.") var teamId: String?
        @Option(help: ArgumentHelp("The .p12 file (certificate authentication).", valueName: "FILE"))
        var certificate: String?
        @Flag(help: "Read the .p12's password from the first line of stdin.") var passwordStdin = false
        @Option(help: ArgumentHelp("The app's bundle id (apns-topic).", valueName: "BUNDLE")) var topic: String
        @Flag(help: "Use the sandbox (development) service.") var sandbox = false

        func run() async throws {
            var body = PushSourceBody(
                name: common.name, kind: .apns, endpoint: common.endpoint, topic: topic, sandbox: sandbox)
            switch (keyFile, certificate) {
            case (let keyFile?, nil):
                guard !passwordStdin else {
                    throw CommandFailure.invalid("--password-stdin is for --certificate; a .p8 key has no password")
                }
                body.key = try FileArgument.text(keyFile, option: "--key-file", what: "the .p8 key file from Apple")
                body.keyId = keyId
                body.teamId = teamId
            case (nil, let certificate?):
                guard keyId == nil, teamId == nil else {
                    throw CommandFailure.invalid(
                        "--key-id and --team-id go with --key-file; a --certificate source has neither")
                }
                body.certificate = try FileArgument.bytes(
                    certificate, option: "--certificate", what: "the .p12 file exported from Keychain Access"
                ).base64EncodedString()
                if passwordStdin { body.password = try PasswordInput.firstLineOfStdin() }
            case (nil, nil), (.some, .some):
                throw CommandFailure.invalid(
                    "give --key-file FILE (a .p8 key, with --key-id and --team-id) or --certificate FILE (a .p12, with --password-stdin), one of the two"
                )
            }
            try await common.configure(body)
        }
    }

    struct FCM: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "fcm", abstract: "A Firebase Cloud Messaging (HTTP v1) source: a service account.")

        @OptionGroup var common: Common
        @Option(help: ArgumentHelp("The Google service-account JSON file.", valueName: "FILE"))
        var serviceAccount: String

        func run() async throws {
            let account = try FileArgument.text(
                serviceAccount, option: "--service-account", what: "the service-account JSON file from Firebase")
            try await common.configure(
                PushSourceBody(
                    name: common.name, kind: .fcm, endpoint: common.endpoint, serviceAccount: account))
        }
    }

    struct WebPush: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "webpush",
            abstract: "A Web Push source; the server makes its VAPID key pair (details.publicKey is for browsers).")

        @OptionGroup var common: Common
        @Option(
            help: ArgumentHelp(
                "Who runs the server, for the push services: mailto:ADDRESS or an https: URL.", valueName: "URI"))
        var subject: String

        func run() async throws {
            try await common.configure(
                PushSourceBody(name: common.name, kind: .webpush, endpoint: common.endpoint, subject: subject))
        }
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "List the push sources: name, kind, public details, fingerprint of the secret.")

        @OptionGroup var options: BackendOptions
        @Option(help: "Namespace (default: default; on a server, the login's).") var namespace: String?

        func run() async throws {
            try await options.printRows(namespace: namespace) { try await $0.pushSources() }
        }
    }

    struct Remove: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Remove a push source and erase its secret.")

        @OptionGroup var options: BackendOptions
        @Argument(help: "The source's name.") var name: String
        @Option(help: "Namespace (default: default; on a server, the login's).") var namespace: String?

        func run() async throws {
            try await options.run(namespace: namespace) { try await $0.removePushSource(name: name) }
            try Output.json(["removed": name])
        }
    }

    struct Test: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Send a test push through a source to each of a user's devices it reaches, now.",
            discussion: "Prints what each device's provider answered: delivered, retry, unregistered or rejected.")

        @OptionGroup var options: BackendOptions
        @Argument(help: "The source's name.") var name: String
        @Option(help: "The user whose devices get the test push.") var user: String
        @Option(help: "Namespace (default: default; on a server, the login's).") var namespace: String?

        func run() async throws {
            try await options.printRows(namespace: namespace) {
                try await $0.testPushSource(name: name, user: user)
            }
        }
    }
}

/// A file named by an option, read for a request; a usage error naming the option when it cannot be.
enum FileArgument {
    /// The file's bytes.
    static func bytes(_ path: String, option: String, what: String) throws -> Data {
        do {
            return try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw CommandFailure.invalid(
                "\(option) \(path): cannot read it (\(Self.reason(error))); give the path of \(what)")
        }
    }

    /// The file's text (UTF-8).
    static func text(_ path: String, option: String, what: String) throws -> String {
        guard let text = String(data: try bytes(path, option: option, what: what), encoding: .utf8) else {
            throw CommandFailure.invalid("\(option) \(path): is not text (UTF-8); give the path of \(what)")
        }
        return text
    }

    /// Why a file could not be read, without the path again.
    private static func reason(_ error: any Error) -> String {
        let code = (error as NSError).code
        switch code {
        case NSFileReadNoSuchFileError, NSFileNoSuchFileError: return "no such file"
        case NSFileReadNoPermissionError: return "permission denied"
        default: return (error as NSError).localizedFailureReason ?? "error \(code)"
        }
    }
}

/// `muster deliveries`: where the pushes of messages stand.
struct DeliveriesCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "deliveries",
        abstract: "List deliveries of messages to devices: pending, delivered, failed or expired.",
        discussion: """
            Each is of a kind: message, locationRequest, areaNotice, or withdrawal (a message withdrawn after its push \
            reached the device: an alert in its place saying so).
            """)

    @OptionGroup var options: BackendOptions
    @Option(help: ArgumentHelp("Only this message's.", valueName: "ID")) var message: String?
    @Option(help: "Only this user's.") var user: String?
    @Option(help: "Only those in this status: pending, delivered, failed or expired.")
    var status: DeliveryRecord.Status?
    @Option(help: "Namespace (default: default; on a server, the login's).") var namespace: String?

    func run() async throws {
        let messageId = try message.map { text in
            guard let id = UUID(uuidString: text) else {
                throw CommandFailure.invalid("--message \(text) is not a message id (a UUID such as 3f2c1a9e-…)")
            }
            return id
        }
        try await options.printRows(namespace: namespace) {
            try await $0.deliveries(messageId: messageId, user: user, status: status)
        }
    }
}

extension DeliveryRecord.Status: ExpressibleByArgument {}

extension PushSource: TableRow {
    static let header = ["NAME", "KIND", "DETAILS", "ENDPOINT", "FINGERPRINT"]
    var cells: [String] {
        [
            name, kind.rawValue,
            details.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
                .joined(separator: " "),
            endpoint ?? "-", fingerprint.prefix(12) + "…",
        ]
    }
}

extension DeliveryRecord: TableRow {
    static let header = [
        "MESSAGE", "KIND", "USER", "DEVICE", "PLATFORM", "SOURCE", "STATUS", "ATTEMPTS", "LAST REASON",
    ]
    var cells: [String] {
        [
            messageId.uuidString.lowercased(), kind.rawValue, user, deviceId, platform.rawValue, source,
            status.rawValue,
            String(attempts), lastReason.map { reason in lastStatus.map { "\($0) \(reason)" } ?? reason } ?? "-",
        ]
    }
}

extension PushTestResult: TableRow {
    static let header = ["DEVICE", "OUTCOME", "STATUS", "DETAIL"]
    var cells: [String] { [deviceId, outcome, status.map(String.init) ?? "-", detail ?? "-"] }
}
