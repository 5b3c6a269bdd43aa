import Foundation
import MusterClient

extension Inbox {
    /// `GET /api/v1/inbox`: the logged-in user's pending messages.
    func run(on session: ServerSession) async throws {
        try session.requireSelf(user, option: "USER", why: "an inbox is read by its owner")
        try session.requireNamespace(namespace)
        let items = try await session.call { try await $0.inbox() }
        try Self.print(
            items.map {
                Row(
                    messageId: $0.messageId, title: $0.title, body: $0.body, sentDate: $0.sentAt,
                    sentAt: Self.milliseconds($0.sentAt), responseTopic: $0.responseTopic)
            }, json: json)
    }

    /// A time the server wrote with milliseconds, written back the same: rounded to the millisecond, where
    /// formatting the decoded `Date` could print one less.
    static func milliseconds(_ date: Date) -> String {
        let total = Int64((date.timeIntervalSince1970 * 1000).rounded())
        var (seconds, millis) = total.quotientAndRemainder(dividingBy: 1000)
        if millis < 0 { (seconds, millis) = (seconds - 1, millis + 1000) }
        let whole = Date(timeIntervalSince1970: Double(seconds)).formatted(Date.ISO8601FormatStyle())
        return "\(whole.dropLast()).\(String(millis + 1000).dropFirst())Z"
    }
}
