import ArgumentParser
import EventLog
import Foundation
import MusterWire

/// `muster notices`: the area notifications handed to a device's application (seed 004) and what it does with
/// them.
struct NoticesCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "notices",
        abstract: "List the area notifications waiting for a device's app; perform or dismiss one.",
        discussion: """
            With the automaticUserNotifications (or automaticServerNotifications) setting false, a rule that \
            fires hands its notification (or its server notification URL) to the device's application instead \
            of sending it. The app has the server perform it — the notification goes to the user's inbox, or the \
            URL is called and the rule goes on — or dismisses it: nothing is sent. A notice is performed or \
            dismissed once (again: exit 3); an id the user has no notice with exits 2.
            """,
        subcommands: [List.self, Perform.self, Dismiss.self])

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "List the notices waiting for the app on a device, oldest first.",
            discussion: """
                With --json: one array of {"id","action","deviceId","areaKind","area","rule","trigger","at",\
                "title","body","openURL","openPBK","data","serverURL"}.
                """)

        @OptionGroup var options: BackendOptions
        @Option(help: "The user the device belongs to (over HTTP: the logged-in user, the default).") var user: String?
        @Option(help: "The device.") var deviceId: String
        @Option(help: "Namespace (default: default; on a server, the login's).") var namespace: String?

        func run() async throws {
            try await options.printRows(namespace: namespace) { try await $0.notices(user: user, deviceId: deviceId) }
        }
    }

    struct Perform: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Have the server do what the rule would have done; prints {state, id, messageId | serverURL}.")

        @OptionGroup var notice: NoticeOptions

        func run() async throws {
            let id = try notice.noticeId()
            try Output.json(
                try await notice.options.run(namespace: notice.namespace) {
                    try await $0.performNotice(id, user: notice.user)
                })
        }
    }

    struct Dismiss: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Record that the app dealt with the notice itself: nothing is sent; prints {state, id}.")

        @OptionGroup var notice: NoticeOptions

        func run() async throws {
            let id = try notice.noticeId()
            try Output.json(
                try await notice.options.run(namespace: notice.namespace) {
                    try await $0.dismissNotice(id, user: notice.user)
                })
        }
    }
}

/// What `notices perform` and `notices dismiss` take: the notice, its user, and where they act.
struct NoticeOptions: ParsableArguments {
    @OptionGroup var options: BackendOptions
    @Argument(help: "The notice's id, as muster notices list prints it.") var id: String
    @Option(help: "The notice's user (over HTTP: the logged-in user, the default).") var user: String?
    @Option(help: "Namespace (default: default; on a server, the login's).") var namespace: String?

    /// `ID` as a UUID; a usage error naming the argument when it is not one.
    func noticeId() throws -> UUID {
        guard let uuid = UUID(uuidString: id) else {
            throw CommandFailure.invalid(
                "ID \(id): is not a notice id; expected a UUID such as 3f2c1a9e-… (see muster notices list)")
        }
        return uuid
    }
}

extension AreaNotification: TableRow {
    static let header = ["ID", "ACTION", "KIND", "AREA", "RULE", "TRIGGER", "AT", "TEXT"]
    var cells: [String] {
        [
            id.uuidString.lowercased(), action.rawValue, areaKind, area, rule, trigger, at,
            serverURL ?? (body.isEmpty ? title : body),
        ]
    }
}
