import ArgumentParser
import EventLog
import Foundation
import Muster

/// `muster counters`: the persistent event counts rules decide on.
struct Counters: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "List the rules' event counters: per user, area and rule, then per user, group and trigger.")

    @OptionGroup var data: DataOptions
    @OptionGroup var remote: RemoteOptions
    @Option(help: "Only this area's counters.") var area: String?
    @Option(help: "Namespace.") var namespace = Names.defaultNamespace
    @Flag(help: "Print one JSON array.") var json = false

    func run() async throws {
        if let session = try remote.session(data: data) { return try await run(on: session) }
        let log = try data.open()
        defer { log.close() }
        try Self.print(try RuleCounters(log: log).counters(area: area, namespace: namespace), json: json)
    }

    static func print(_ counters: [RuleCounters.Counter], json: Bool) throws {
        if json { return try Output.json(counters) }
        Output.table(
            ["USER", "AREA", "RULE", "GROUP", "TRIGGER", "COUNT"],
            counters.map {
                [$0.user, $0.area ?? "", $0.rule ?? "", $0.group ?? "", $0.trigger ?? "", String($0.count)]
            })
    }
}

/// `muster quota`: how many rule notifications a user had on a day of their time zone.
struct Quota: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Show a user's rule notifications on a day (their time zone) against dailyNotificationLimit.")

    @OptionGroup var data: DataOptions
    @OptionGroup var remote: RemoteOptions
    @Argument(help: "The user.") var user: String
    @Option(help: "The day, YYYY-MM-DD (default: today in the user's time zone).") var date: String?
    @Option(help: "Namespace.") var namespace = Names.defaultNamespace
    @Flag(help: "Print one JSON document.") var json = false

    func validate() throws {
        if let date, !RuleCounters.isDay(date) {
            throw ValidationError("--date \(date) is not a day such as 2026-11-23")
        }
    }

    func run() async throws {
        if let session = try remote.session(data: data) { return try await run(on: session) }
        let log = try data.open()
        defer { log.close() }
        guard try Directory(log: log).user(user, namespace: namespace) != nil else {
            throw CommandFailure.invalid("no user named \(user) in namespace \(namespace)")
        }
        let counters = RuleCounters(log: log)
        let day = try date ?? counters.today(user: user, namespace: namespace)
        try Self.print(try counters.report(user: user, day: day, namespace: namespace), json: json)
    }

    static func print(_ report: RuleCounters.QuotaReport, json: Bool) throws {
        if json { return try Output.json(report) }
        Output.table(
            ["USER", "DATE", "NOTIFICATIONS", "LIMIT"],
            [[report.user, report.date, String(report.notifications), report.limit.map(String.init) ?? "unlimited"]])
    }
}
