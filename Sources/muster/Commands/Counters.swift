import ArgumentParser
import EventLog
import Foundation
import Muster

/// `muster counters`: the persistent event counts rules decide on.
struct Counters: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "List the rules' event counters: per user, area and rule, then per user, group and trigger.")

    @OptionGroup var options: BackendOptions
    @Option(help: "Only this area's counters.") var area: String?
    @Option(help: "Only areas of this kind: geofence or beacon (an id may name one of each).") var kind: Area.Kind?
    @Option(help: "Namespace (default: default; on a server, the login's).") var namespace: String?

    func run() async throws {
        try await options.printRows(namespace: namespace) { try await $0.counters(area: area, kind: kind) }
    }
}

/// `muster quota`: how many rule notifications a user had on a day of their time zone.
struct Quota: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Show a user's rule notifications on a day (their time zone) against dailyNotificationLimit.")

    @OptionGroup var options: BackendOptions
    @Argument(help: "The user.") var user: String
    @Option(help: "The day, YYYY-MM-DD (default: today in the user's time zone).") var date: String?
    @Option(help: "Namespace (default: default; on a server, the login's).") var namespace: String?

    func validate() throws {
        if let date, !RuleCounters.isDay(date) {
            throw ValidationError("--date \(date) is not a day such as 2026-11-23")
        }
    }

    func run() async throws {
        let report = try await options.run(namespace: namespace) { try await $0.quota(user: user, date: date) }
        if options.json { return try Output.json(report) }
        try Output.rows([report], json: false)
    }
}
