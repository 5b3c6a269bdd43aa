import EventLog
import EventLogTesting
import Foundation
import Muster

/// `Notification.sendPayload` to every user of a namespace: N users (100,000; 1,000 with --smoke),
/// timed from the send until every inbox shows the message. Target ≤ 1 s; no peer runs the same
/// workload, so there is no baseline.
struct SendToAll: Scenario {
    let name = "send-to-all"
    static let usersPerCommit = 10_000
    static let payload = Data(
        #"{"responseTopic":"/bench/send/all","fields":[{"id":"ok","type":"checkbox","label":"Seen?"}]}"#.utf8)

    func run(_ settings: Settings, into report: inout ScenarioReport) async throws {
        let users = settings.smoke ? 1_000 : 100_000
        let directory = try TemporaryDirectory("bench-send")
        defer { settings.discard(directory) }
        var configuration = EventLog.Configuration()
        configuration.projections += MusterDomain.projections
        let log = try EventLog(directory: directory.url, configuration: configuration)
        defer { log.close() }

        let created = ContinuousClock.now
        try await Self.createUsers(users, in: log)
        report.context.append(
            Figure(label: "creating \(users) users", value: Double(users) / seconds(since: created), unit: "users/s"))

        let notifications = Notifications(log: log)
        let start = ContinuousClock.now
        let sent = try await notifications.send(
            all: true, title: "Bench", body: "Everyone", payload: Self.payload, actor: "bench")
        let sendSeconds = seconds(since: start)
        try Self.checkDelivered(sent, users: users, log: log, notifications: notifications)
        let total = seconds(since: start)

        report.comparisons.append(
            Comparison(
                "send to all \(users) users", figure: Figure(label: "until every inbox", value: total, unit: "s"),
                baseline: nil, status: "target ≤ 1 s; no baseline peer"))
        report.context.append(Figure(label: "send returned", value: sendSeconds * 1000, unit: "ms"))
        report.context.append(Figure(label: "until every inbox", value: total * 1000, unit: "ms"))
        report.context.append(Figure(label: "messages delivered", value: Double(users) / total, unit: "messages/s"))
        try await Self.followAndWithdraw(sent, users: users, log: log, into: &report)
        report.notes.append(
            String(format: "%.3f s until every inbox showed it; ", total)
                + "target ≤ 1 s for 100,000 users (\(total <= 1 ? "met" : "not met") at \(users)); "
                + "no baseline: no peer runs this workload")
    }

    /// The sender follows the send and takes back the rest: a page of 1,000 of its pending messages (the first and
    /// the last), and the withdrawal in one append of every message not answered (all but one in 100).
    static func followAndWithdraw(
        _ sent: Notifications.SendResult, users: Int, log: EventLog, into report: inout ScenarioReport
    ) async throws {
        let notifications = Notifications(log: log)
        func page(from: Int) throws -> Double {
            let start = ContinuousClock.now
            guard let page = try notifications.send(sent.sendId, state: .pending, from: from, limit: 1000),
                page.messages?.count == min(1000, users - from)
            else { throw NotDelivered("a page of the send's pending messages from \(from) is not whole") }
            return seconds(since: start) * 1000
        }
        report.context.append(Figure(label: "first page of 1,000 pending", value: try page(from: 0), unit: "ms"))
        report.context.append(
            Figure(label: "last page of 1,000 pending", value: try page(from: users - 1000), unit: "ms"))
        // The list of sends the console shows first, the send in it.
        let listed = ContinuousClock.now
        guard try notifications.sends(limit: 50).first?.sendId == sent.sendId else {
            throw NotDelivered("the list of sends does not begin with the send")
        }
        report.context.append(Figure(label: "list of sends", value: seconds(since: listed) * 1000, unit: "ms"))
        // A hundred recipients' inbox live streams, opened from the send: each is told of its own message.
        let position = try log.read { try $0.position(ofEventId: sent.sendId) } ?? 0
        var start = ContinuousClock.now
        try await withThrowingTaskGroup(of: Void.self) { group in
            for index in stride(from: 0, to: users, by: users / 100) {
                group.addTask {
                    var updates = notifications.inboxUpdates(user: sent.recipients[index], from: position)
                        .makeAsyncIterator()
                    guard let first = try await updates.next(), case .arrived(let message) = first.change,
                        message.messageId == sent.messageIds[index]
                    else { throw NotDelivered("the live inbox of \(sent.recipients[index]) was not told of it") }
                }
            }
            try await group.waitForAll()
        }
        report.context.append(
            Figure(label: "100 live inboxes told of it", value: seconds(since: start) * 1000, unit: "ms"))
        // One recipient in 100 opens the message (what a device fetches to show it) and answers it.
        let answer = Data(#"{"ok":true}"#.utf8)
        let answering = Array(stride(from: 0, to: users, by: 100))
        start = ContinuousClock.now
        for index in answering {
            guard try notifications.message(id: sent.messageIds[index], user: sent.recipients[index]) != nil else {
                throw NotDelivered("the message of \(sent.recipients[index]) is not there to open")
            }
        }
        report.context.append(
            Figure(label: "messages opened", value: Double(answering.count) / seconds(since: start), unit: "/s"))
        start = ContinuousClock.now
        for index in answering {
            _ = try await notifications.respond(
                messageId: sent.messageIds[index], values: answer,
                as: Respondent(user: sent.recipients[index], deviceId: "bench"))
        }
        report.context.append(
            Figure(label: "messages answered", value: Double(answering.count) / seconds(since: start), unit: "/s"))
        start = ContinuousClock.now
        let withdrawn = try await notifications.withdrawPending(ofSend: sent.sendId, actor: "bench")
        let took = seconds(since: start)
        guard withdrawn == users - users / 100, try notifications.send(sent.sendId, limit: 1)?.pending == 0 else {
            throw NotDelivered("withdrawing the rest took back \(withdrawn ?? 0) messages, not \(users - users / 100)")
        }
        report.context.append(Figure(label: "withdrawing the rest (\(withdrawn!))", value: took * 1000, unit: "ms"))
        report.context.append(Figure(label: "withdrawals", value: Double(withdrawn!) / took, unit: "messages/s"))
    }

    /// Appends `count` `UserCreated` events, `usersPerCommit` per write transaction.
    static func createUsers(_ count: Int, in log: EventLog) async throws {
        var first = 0
        while first < count {
            let range = first..<min(count, first + usersPerCommit)
            try await log.perform { scope in
                for n in range {
                    let user = UserCreated(
                        name: "user\(n)", email: nil, timeZone: "UTC", isAdmin: false, password: nil)
                    try scope.append(
                        AppendRequest(stream: "user/user\(n)", events: [user.newEvent(actor: "bench")]))
                }
            }
            first = range.upperBound
        }
    }

    /// Every recipient has a message: the inbox projection holds one entry each, and a sample of
    /// inboxes (first, last and every 997th user) shows this message.
    static func checkDelivered(
        _ sent: Notifications.SendResult, users: Int, log: EventLog, notifications: Notifications
    )
        throws
    {
        guard sent.recipients.count == users else {
            throw NotDelivered("sent to \(sent.recipients.count) users, expected \(users)")
        }
        let pending = try log.read { try $0.projection(InboxProjection.name).count("pending") }
        guard pending == users else {
            throw NotDelivered("the inbox projection has \(pending) entries, expected \(users)")
        }
        let ids = Dictionary(uniqueKeysWithValues: zip(sent.recipients, sent.messageIds))
        for n in Set(Array(stride(from: 0, to: users, by: 997)) + [users - 1]) {
            let user = "user\(n)"
            guard let id = ids[user], try notifications.inbox(user: user).contains(where: { $0.messageId == id })
            else { throw NotDelivered("the inbox of \(user) does not show the message") }
        }
    }
}

/// The send did not reach every inbox: the figure would mean nothing.
struct NotDelivered: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
