import Foundation
import MusterClient

extension Send {
    /// `POST /api/v1/notifications` (administrators), as the logged-in user.
    func run(on session: ServerSession) async throws {
        if sender != "cli" { try session.requireSelf(sender, option: "--sender", why: "the sender is who sends it") }
        try session.requireNamespace(namespace)
        if pushSizeLimit != nil {
            throw CommandFailure.invalid(
                "--push-size-limit is for a data directory; a server applies the pushSizeLimit setting "
                    + "(muster settings set pushSizeLimit BYTES)")
        }
        let document = try FormErrorOutput.payload(payload, json: json)
        var recipients = Recipients(users: FormErrorOutput.list(to), groups: FormErrorOutput.list(group))
        recipients.all = all
        let sent = try await session.call(json: json) {
            try await $0.send(title: title, body: body, payload: document, to: recipients, source: source)
        }
        try Output.json(sent)
    }
}
