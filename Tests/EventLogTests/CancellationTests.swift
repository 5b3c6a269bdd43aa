import EventLogTesting
import Foundation
import Synchronization
import Testing

@testable import EventLog

/// A backup or restore asked to stop (Ctrl-C) leaves nothing half-done: no partial backup, no staged copy, the
/// target as it was.
@Suite struct CancellationTests {
    /// Cancelled from its `after`-th look on (the first look is 1).
    static func cancelled(after: Int) -> OperationCancellation {
        let looks = Atomic<Int>(0)
        return OperationCancellation { looks.add(1, ordering: .relaxed).newValue >= after }
    }

    @Test(arguments: 1...5)
    func aCancelledBackupLeavesNothing(after: Int) async throws {
        let t = try TestLog("cancel-backup")
        defer { t.directory.remove() }
        let log = try t.open()
        defer { log.close() }
        for i in 1...20 { try await log.append(AppendRequest(stream: "s", events: [.sample(n: i)])) }
        let outside = try TemporaryDirectory("cancel-backup-to")
        defer { outside.remove() }

        let made = outside.url.appendingPathComponent("new")
        let error = await #expect(throws: StoreError.self) {
            try await log.backup(to: made, cancelled: Self.cancelled(after: after))
        }
        #expect(error?.code == .cancelled)
        #expect(!FileManager.default.fileExists(atPath: made.path), "a destination the backup made is removed")

        let given = outside.url.appendingPathComponent("given")
        try FileManager.default.createDirectory(at: given, withIntermediateDirectories: false)
        await #expect(throws: StoreError.self) {
            try await log.backup(to: given, cancelled: Self.cancelled(after: after))
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: given.path) == [], "one given stays, empty")
    }

    @Test(arguments: 1...4)
    func aCancelledRestoreLeavesTheTargetAsItWas(after: Int) async throws {
        let (source, backup) = try await BackupTests.sourceWithBackup(events: 30)
        defer { source.directory.remove() }
        let target = try TestLog("cancel-restore")
        defer { target.directory.remove() }
        let existing = try target.open()
        try await existing.append(AppendRequest(stream: "mine", events: [.sample(n: 7)]))
        existing.close()

        let error = await #expect(throws: StoreError.self) {
            try await EventLog.restore(
                from: backup, into: target.directory.url, force: true, cancelled: Self.cancelled(after: after))
        }
        #expect(error?.code == .cancelled, "\(error?.message ?? "")")
        let reopened = try target.open()
        defer { reopened.close() }
        #expect(try reopened.events(EventQuery()).map(\.stream) == ["mine"])
        let parent = target.directory.url.deletingLastPathComponent().path
        let prefix = ".\(target.directory.url.lastPathComponent)."
        #expect(try FileManager.default.contentsOfDirectory(atPath: parent).filter { $0.hasPrefix(prefix) } == [])
    }
}
