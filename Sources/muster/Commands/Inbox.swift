import ArgumentParser
import EventLog
import Foundation
import Muster

/// `muster inbox`: a user's pending messages.
struct Inbox: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "List a user's pending messages, oldest first.")

    @OptionGroup var data: DataOptions
    @Argument(help: "User name.") var user: String
    @Option(help: "Namespace.") var namespace = Names.defaultNamespace
    @Flag(help: "Print one JSON array.") var json = false

    func run() async throws {
        let log = try data.open()
        defer { log.close() }
        let messages = try Notifications(log: log).inbox(user: user, namespace: namespace)
        if json { return try Output.json(messages) }
        Output.table(
            ["MESSAGE ID", "SENT AT", "TOPIC", "TITLE", "BODY"],
            messages.map {
                [
                    $0.messageId.uuidString, $0.sentDate.formatted(.iso8601), $0.responseTopic, $0.title, $0.body,
                ]
            })
    }
}
