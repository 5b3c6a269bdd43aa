import EventLog
import EventLogTesting
import Foundation
import Synchronization
import Testing

/// A format-2 → 3 migration for tests (after the built-in 1 → 2): writes a marker table and counts its runs.
private struct MarkerMigration: StoreMigration {
    let counter: Counter
    var fromFormat: UInt32 { 2 }
    var summary: String { "adds the marker table" }

    func migrate(_ scope: MigrationScope) throws {
        guard let table = try scope.table("marker", create: true) else {
            throw StoreError(.notFound, "the marker table was not created")
        }
        try scope.transaction.put(table, Array("migrated".utf8), [1])
        counter.runs.withLock { $0 += 1 }
    }
}

private final class Counter: Sendable {
    let runs = Mutex(0)
    var value: Int { runs.withLock { $0 } }
}

@Suite struct MigrateTests {
    @Test func anOlderFormatIsRefusedUntilMigratedOnce() async throws {
        let t = try TestLog()
        defer { t.directory.remove() }
        do {
            let log = try t.open()
            try await log.append(AppendRequest(stream: "s", events: [.sample(n: 1)]))
            #expect(try log.storedFormatVersion() == 2)
            log.close()
        }
        let counter = Counter()
        let migration = MarkerMigration(counter: counter)
        let refused = #expect(throws: StoreError.self) { _ = try t.open { $0.migrations += [migration] } }
        #expect(refused?.code == .olderFormat)
        #expect(refused?.remedy == .migrate)

        do {
            let log = try t.open {
                $0.migrations += [migration]
                $0.allowOlderFormat = true
            }
            #expect(log.configuration.formatVersion == 3)
            #expect(try log.storedFormatVersion() == 2)
            let applied = try await log.migrate()
            #expect(applied == ["adds the marker table"])
            #expect(try log.storedFormatVersion() == 3)
            #expect(try await log.migrate() == [], "a second run finds the directory current")
            log.close()
        }
        #expect(counter.value == 1)

        let reopened = try t.open { $0.migrations += [migration] }
        defer { reopened.close() }
        #expect(try reopened.storedFormatVersion() == 3)
        #expect(try reopened.events(EventQuery()).count == 1, "events survive the migration")
    }

    @Test func aNewerFormatIsRefused() async throws {
        let t = try TestLog()
        defer { t.directory.remove() }
        do {
            let log = try t.open { $0.migrations += [MarkerMigration(counter: Counter())] }
            #expect(try log.storedFormatVersion() == 3)
            log.close()
        }
        let newer = #expect(throws: StoreError.self) { _ = try t.open() }
        #expect(newer?.code == .newerFormat)
        let evenWhenAllowingOlder = #expect(throws: StoreError.self) { _ = try t.open { $0.allowOlderFormat = true } }
        #expect(evenWhenAllowingOlder?.code == .newerFormat)
    }
}
