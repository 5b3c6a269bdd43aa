import EventLog
import EventLogTesting
import Foundation
import Migrations
import Testing

/// The data directory written by the first release (format 1) still opens, reads, verifies and
/// migrates. Made by `Fixtures/make-format-1.sh`; never regenerate it — add a new fixture instead.
@Suite struct FormatFixtureTests {
    static var fixtures: URL { Bundle.module.url(forResource: "Fixtures", withExtension: nil)! }

    func restoredFixture() async throws -> TemporaryDirectory {
        let directory = try TemporaryDirectory("fixture")
        let target = directory.url.appendingPathComponent("data")
        _ = try await EventLog.restore(from: Self.fixtures.appendingPathComponent("format-1"), into: target)
        return directory
    }

    func release(allowOlderFormat: Bool = false) -> EventLog.Configuration {
        var configuration = EventLog.Configuration()
        configuration.upcasters = Migrations.upcasters
        configuration.migrations = Migrations.storeMigrations
        configuration.allowOlderFormat = allowOlderFormat
        return configuration
    }

    @Test func theFirstReleasesDataDirectoryOpensWithEveryEventIntact() async throws {
        let directory = try await restoredFixture()
        defer { directory.remove() }
        let data = directory.url.appendingPathComponent("data")
        // Migrate first, as an operator would after upgrading; a current directory is left as it is.
        do {
            let log = try EventLog(directory: data, configuration: release(allowOlderFormat: true))
            _ = try await log.migrate()
            try await log.rebuild(try log.projectionsNeedingRebuild())
            log.close()
        }
        let log = try EventLog(directory: data, configuration: release())
        defer { log.close() }
        #expect(try log.storedFormatVersion() == log.configuration.formatVersion)

        let lines = try String(
            contentsOf: Self.fixtures.appendingPathComponent("format-1-events.jsonl"), encoding: .utf8
        )
        .split(separator: "\n")
        .map { try JSONSerialization.jsonObject(with: Data($0.utf8)) as! [String: Any] }
        let events = try log.events(EventQuery())
        #expect(events.map(\.position) == [1, 2, 3, 4, 5])
        for (event, line) in zip(events, lines) {
            #expect(event.id == UUID(uuidString: line["id"] as! String))
            #expect(event.stream == line["stream"] as! String)
            #expect(event.type == line["type"] as! String)
            #expect(event.namespace == (line["namespace"] as? String ?? "default"))
            #expect(event.actor == (line["actor"] as? String ?? "system"))
            let stored = try JSONSerialization.jsonObject(with: Data(event.body.bytes), options: .fragmentsAllowed)
            #expect(NSDictionary(dictionary: ["b": stored]).isEqual(to: ["b": line["body"]!]))
        }
        #expect(try log.events(EventQuery(type: "OrderPlaced")).map(\.position) == [1, 4])
        #expect(try log.events(EventQuery(namespace: "acme")).map(\.stream) == ["users/joe"])
        #expect(try log.read { try $0.streamVersion(stream: "orders-2") } == 2)

        let report = try await log.verify()
        #expect(report.problems.isEmpty, "\(report.problems)")
        let next = try await log.append(
            AppendRequest(stream: "orders-1", expectedVersion: .exact(2), events: [.sample()]))
        #expect(next.positions == [6])
    }
}
