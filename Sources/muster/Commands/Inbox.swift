import ArgumentParser
import EventLog
import Foundation
import Muster

/// `muster inbox`: a user's pending messages.
struct Inbox: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "List a user's pending messages, oldest first.")

    @OptionGroup var data: DataOptions
    @OptionGroup var remote: RemoteOptions
    @Argument(help: "User name (over HTTP: the logged-in user, the default).") var user: String?
    @Option(help: "Namespace.") var namespace = Names.defaultNamespace
    @Flag(help: "Print one JSON array.") var json = false

    func run() async throws {
        if let session = try remote.session(data: data) { return try await run(on: session) }
        guard let user else { throw CommandFailure.invalid("name the user whose inbox to list: muster inbox USER") }
        let log = try data.open()
        defer { log.close() }
        let messages = try Notifications(log: log).inbox(user: user, namespace: namespace)
        try Self.print(
            messages.map {
                Row(
                    messageId: $0.messageId, title: $0.title, body: $0.body, sentDate: $0.sentDate,
                    sentAt: Timestamp.iso8601(microseconds: $0.sentAt),
                    responseTopic: $0.responseTopic)
            }, json: json)
    }

    /// A pending message as printed: the contract's `{"messageId","title","body","sentAt","responseTopic"}`.
    struct Row: Encodable {
        var messageId: UUID
        var title: String
        var body: String
        var sentDate: Date
        /// `sentDate` as the JSON shows it: ISO 8601, UTC, milliseconds.
        var sentAt: String
        var responseTopic: String

        private enum CodingKeys: String, CodingKey { case messageId, title, body, sentAt, responseTopic }

        /// Message ids in lower case, as the HTTP API writes them.
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(messageId.uuidString.lowercased(), forKey: .messageId)
            try container.encode(title, forKey: .title)
            try container.encode(body, forKey: .body)
            try container.encode(sentAt, forKey: .sentAt)
            try container.encode(responseTopic, forKey: .responseTopic)
        }
    }

    static func print(_ rows: [Row], json: Bool) throws {
        if json { return try Output.json(rows) }
        Output.table(
            ["MESSAGE ID", "SENT AT", "TOPIC", "TITLE", "BODY"],
            rows.map {
                [
                    $0.messageId.uuidString.lowercased(), $0.sentDate.formatted(.iso8601), $0.responseTopic, $0.title,
                    $0.body,
                ]
            })
    }
}
