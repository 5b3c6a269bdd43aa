import ArgumentParser
import Foundation

/// `muster withdraw`: takes back messages sent by mistake, before they are answered.
struct Withdraw: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Withdraw messages not answered yet; prints {\"withdrawn\": [ID…]}.",
        discussion: """
            Each leaves its recipient's inbox and can no longer be read or answered by them; the pushes still \
            waiting to carry it are not sent, and a phone or browser one reached is sent an alert in its place \
            saying it was withdrawn. muster sends show SEND_ID lists a send's messages. A message answered or withdrawn \
            already exits 3, one sent to nobody of the namespace exits 2; nothing is withdrawn when one of them is \
            refused. Over HTTP: an administrator's, after muster login. The ids are those muster send printed \
            (messageIds), one per recipient; muster sends withdraw SEND_ID takes back a whole send's rest.
            """)

    @OptionGroup var options: BackendOptions
    @Argument(help: "The message ids.") var messageIds: [String]
    @Option(help: "Namespace (default: default; on a server, the login's).") var namespace: String?

    func validate() throws {
        guard !messageIds.isEmpty else { throw ValidationError("give the ids of the messages to withdraw") }
        for id in messageIds where UUID(uuidString: id) == nil {
            throw ValidationError("MESSAGE_ID must be a UUID, not \(String(reflecting: id))")
        }
    }

    func run() async throws {
        let ids = messageIds.compactMap(UUID.init(uuidString:))
        try await options.run(namespace: namespace) { try await $0.withdraw(ids) }
        try Output.json(["withdrawn": ids.map { $0.uuidString.lowercased() }])
    }
}
