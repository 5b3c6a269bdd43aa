import ArgumentParser
import Foundation
import MusterWire

/// `muster sends`: the namespace's sends and where their messages stand — who answered a roll call, who not yet.
struct Sends: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "List sends and show where each one's messages stand.",
        subcommands: [List.self, Show.self])

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "List the namespace's sends, newest first, with how many were answered, withdrawn or wait.",
            discussion: """
                Withdrawn counts the messages withdrawn by their sender and those of recipients since removed. Over \
                HTTP: an administrator's, after muster login. With --json: one array of {"sendId","title","body",\
                "sender","sentAt","recipients","answered","withdrawn","pending"}.
                """)

        @OptionGroup var options: BackendOptions
        @Option(help: "How many, from 1 to 1000.") var limit = 50
        @Option(help: "Namespace (default: default; on a server, the login's).") var namespace: String?

        func validate() throws {
            guard (1...1000).contains(limit) else { throw ValidationError("--limit must be from 1 to 1000") }
        }

        func run() async throws {
            try await options.printRows(namespace: namespace) { try await $0.sends(limit: limit) }
        }
    }

    struct Show: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Show one send: each recipient's message and whether it is answered, withdrawn or pending.",
            discussion: """
                The id is the sendId muster send printed, or one muster sends list shows. With --json: the send as \
                muster sends list prints it, with "messages": [{"user","messageId","state"}].
                """)

        @OptionGroup var options: BackendOptions
        @Argument(help: "The send's id.") var id: String
        @Option(help: "Namespace (default: default; on a server, the login's).") var namespace: String?

        func validate() throws {
            guard UUID(uuidString: id) != nil else {
                throw ValidationError("SEND_ID must be a UUID (a sendId), not \(String(reflecting: id))")
            }
        }

        func run() async throws {
            let send = try await options.run(namespace: namespace) { try await $0.send(UUID(uuidString: id)!) }
            if options.json { return try Output.json(send) }
            Output.line(
                "\(send.title) — sent by \(send.sender) at \(send.sentAt.formatted(.iso8601)): \(send.recipients) "
                    + "recipients, \(send.answered) answered, \(send.withdrawn) withdrawn, \(send.pending) pending")
            Output.table(
                ["USER", "MESSAGE", "STATE"],
                (send.messages ?? []).map { [$0.user, $0.messageId.uuidString.lowercased(), $0.state.rawValue] })
        }
    }
}

extension SendOverview: TableRow {
    static let header = ["SENT AT", "SEND", "TITLE", "SENDER", "RECIPIENTS", "ANSWERED", "WITHDRAWN", "PENDING"]
    var cells: [String] {
        [
            sentAt.formatted(.iso8601), sendId.uuidString.lowercased(), title, sender, String(recipients),
            String(answered), String(withdrawn), String(pending),
        ]
    }
}
