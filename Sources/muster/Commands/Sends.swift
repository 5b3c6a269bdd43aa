import ArgumentParser
import Foundation
import MusterWire

/// `muster sends`: the namespace's sends and where their messages stand — who answered a roll call, who not yet —
/// and the withdrawal of the rest.
struct Sends: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "List sends, show where each one's messages stand, and withdraw those not answered.",
        subcommands: [List.self, Show.self, Withdraw.self])

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "List the namespace's sends, newest first, with how many were answered, withdrawn or wait.",
            discussion: """
                Withdrawn counts the messages withdrawn by their sender and those of recipients since removed. The \
                next page: --before the last one's SEND id. Over HTTP: an administrator's, after muster login. With \
                --json: one array of {"sendId","title","body","sender","sentAt","recipients","answered","withdrawn",\
                "pending"}.
                """)

        @OptionGroup var options: BackendOptions
        @Option(help: "How many, from 1 to 1000.") var limit = 50
        @Option(help: ArgumentHelp("Only the sends older than this one.", valueName: "SEND_ID")) var before: String?
        @Option(help: "Namespace (default: default; on a server, the login's).") var namespace: String?

        func validate() throws {
            guard (1...1000).contains(limit) else { throw ValidationError("--limit must be from 1 to 1000") }
            _ = try Sends.id(before, "--before")
        }

        func run() async throws {
            let before = try Sends.id(before, "--before")
            try await options.printRows(namespace: namespace) { try await $0.sends(limit: limit, before: before) }
        }
    }

    struct Show: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Show one send: each recipient's message and whether it is answered, withdrawn or pending.",
            discussion: """
                The id is the sendId muster send printed, or one muster sends list shows. Every recipient in the \
                send's order, or with --state only those pending, answered or withdrawn; with --limit one page of \
                them from the --from'th (from 0), and the next page's --from last. With --json: the send as muster \
                sends list prints it, with "messages": [{"user","messageId","state"}] (and "nextFrom" after a page \
                that is not the last).
                """)

        @OptionGroup var options: BackendOptions
        @Argument(help: ArgumentHelp("The send's id.", valueName: "SEND_ID")) var id: String
        @Option(help: "Only the messages in this state: pending, answered or withdrawn.") var state: SendOverview.State?
        @Option(help: "The first recipient to show, by its index in the send (from 0).") var from = 0
        @Option(help: "One page of at most this many (1 to 10000) instead of all.") var limit: Int?
        @Option(help: "Namespace (default: default; on a server, the login's).") var namespace: String?

        func validate() throws {
            _ = try Sends.id(id, "SEND_ID")
            guard from >= 0 else { throw ValidationError("--from must be 0 or more, a recipient's index in the send") }
            if let limit, !(1...10_000).contains(limit) {
                throw ValidationError("--limit must be from 1 to 10000")
            }
        }

        func run() async throws {
            let id = try Sends.id(id, "SEND_ID")!
            let send = try await options.run(namespace: namespace) { backend in
                guard limit == nil else {
                    return try await backend.send(id, state: state, from: from, limit: limit!)
                }
                // Every page from --from on, one after another: what a table or a pipe to grep expects.
                var send = try await backend.send(id, state: state, from: from, limit: 10_000)
                while let next = send.nextFrom {
                    let page = try await backend.send(id, state: state, from: next, limit: 10_000)
                    send.messages = (send.messages ?? []) + (page.messages ?? [])
                    send.nextFrom = page.nextFrom
                }
                return send
            }
            if options.json { return try Output.json(send) }
            Output.line(
                "\(send.title) — sent by \(send.sender) at \(send.sentAt.formatted(.iso8601)): \(send.recipients) "
                    + "recipients, \(send.answered) answered, \(send.withdrawn) withdrawn, \(send.pending) pending")
            Output.table(
                ["USER", "MESSAGE", "STATE"],
                (send.messages ?? []).map { [$0.user, $0.messageId.uuidString.lowercased(), $0.state.rawValue] })
            if let next = send.nextFrom {
                Output.line("more: muster sends show \(id.uuidString.lowercased()) --from \(next) …")
            }
        }
    }

    struct Withdraw: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Withdraw every message of a send not answered yet, at once.",
            discussion: """
                Each leaves its recipient's inbox, can no longer be answered, and a push already shown is replaced \
                by its withdrawal; answered messages keep their answers. One append: all or none. Prints how many \
                (0 when none was pending). With --json: {"sendId","withdrawn"}.
                """)

        @OptionGroup var options: BackendOptions
        @Argument(help: ArgumentHelp("The send's id.", valueName: "SEND_ID")) var id: String
        @Option(help: "Namespace (default: default; on a server, the login's).") var namespace: String?

        func validate() throws { _ = try Sends.id(id, "SEND_ID") }

        func run() async throws {
            let id = try Sends.id(id, "SEND_ID")!
            let done = try await options.run(namespace: namespace) { try await $0.withdrawPending(ofSend: id) }
            if options.json { return try Output.json(done) }
            Output.line(
                "withdrew \(done.withdrawn) message\(done.withdrawn == 1 ? "" : "s") of send "
                    + "\(id.uuidString.lowercased()), those not answered yet")
        }
    }

    /// A send id given as `name`; nil when none is given.
    static func id(_ text: String?, _ name: String) throws -> UUID? {
        guard let text else { return nil }
        guard let id = UUID(uuidString: text) else {
            throw ValidationError("\(name) must be a UUID (a sendId), not \(String(reflecting: text))")
        }
        return id
    }
}

extension SendOverview.State: ExpressibleByArgument {}

extension SendOverview: TableRow {
    static let header = ["SENT AT", "SEND", "TITLE", "SENDER", "RECIPIENTS", "ANSWERED", "WITHDRAWN", "PENDING"]
    var cells: [String] {
        [
            sentAt.formatted(.iso8601), sendId.uuidString.lowercased(), title, sender, String(recipients),
            String(answered), String(withdrawn), String(pending),
        ]
    }
}
