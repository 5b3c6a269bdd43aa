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

    /// Each of the backup's looks (its start, each piece of the copy — one here —, between the later steps).
    @Test(arguments: 1...4)
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

    /// Interrupted while LMDB copies the data file, a backup stops there — within a piece of 1 MiB — not once the
    /// copy is done: the copy on disk at the interruption is a fraction of the whole, and nothing is left after it.
    @Test func aBackupInterruptedDuringTheCopyStopsThere() async throws {
        let t = try TestLog("cancel-copy")
        defer { t.directory.remove() }
        let log = try t.open()
        defer { log.close() }
        let filler = String(repeating: "x", count: 4000)
        for batch in 0..<20 {
            let events = (0..<100).map {
                NewEvent(type: "Filled", body: .json(#"{"n":\#(batch * 100 + $0),"f":"\#(filler)"}"#))
            }
            try await log.append(AppendRequest(stream: "s", events: events))
        }
        let outside = try TemporaryDirectory("cancel-copy-to")
        defer { outside.remove() }
        let whole = try await log.backup(to: outside.url.appendingPathComponent("whole")).dataFile.size
        try #require(whole > 4 << 20, "a data file of several pieces: \(whole) bytes")

        let cut = outside.url.appendingPathComponent("cut")
        let copied = Mutex<UInt64?>(nil)
        let looks = Atomic<Int>(0)
        let cancellation = OperationCancellation {
            // The first look is the backup's start; the second, after the copy's first piece.
            guard looks.add(1, ordering: .relaxed).newValue >= 2 else { return false }
            let path = cut.appendingPathComponent(BackupManifest.dataFileName).path
            let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? UInt64) ?? 0
            copied.withLock { $0 = $0 ?? size }
            return true
        }
        let error = await #expect(throws: StoreError.self) {
            try await log.backup(to: cut, cancelled: cancellation)
        }
        #expect(error?.code == .cancelled)
        let atInterruption = try #require(copied.withLock { $0 })
        #expect(atInterruption < whole / 2, "\(atInterruption) of \(whole) bytes copied when interrupted")
        #expect(!FileManager.default.fileExists(atPath: cut.path), "nothing is left")
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
