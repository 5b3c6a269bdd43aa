import EventLogTesting
import Foundation
import Testing

@testable import EventLog

/// A restore replaces the data directory only while no environment has it open, and an environment is not opened
/// while a restore replaces it: writes into the replaced (deleted) files would be lost.
@Suite struct RestoreLockTests {
    @Test func restoreIsRefusedWhileTheTargetIsOpenAndGoesAheadOnceItIsClosed() async throws {
        let (source, backup) = try await BackupTests.sourceWithBackup(events: 5)
        defer { source.directory.remove() }
        let target = try TestLog("target")
        defer { target.directory.remove() }
        let open = try target.open()
        try await open.append(AppendRequest(stream: "mine", events: [.sample(n: 1)]))

        let error = await #expect(throws: StoreError.self) {
            try await EventLog.restore(from: backup, into: target.directory.url, force: true)
        }
        #expect(error?.code == .conflict)
        #expect(
            error?.message.hasPrefix("data directory \(target.directory.url.path) is open in another process") == true,
            "\(error?.message ?? "")")
        #expect(error?.message.contains("stop the server first") == true)
        // Still the open log's, which goes on writing.
        try await open.append(AppendRequest(stream: "mine", events: [.sample(n: 2)]))
        #expect(try open.events(EventQuery()).map(\.stream) == ["mine", "mine"])
        let parent = target.directory.url.deletingLastPathComponent().path
        let prefix = ".\(target.directory.url.lastPathComponent)."
        #expect(try FileManager.default.contentsOfDirectory(atPath: parent).filter { $0.hasPrefix(prefix) } == [])

        open.close()
        try await EventLog.restore(from: backup, into: target.directory.url, force: true)
        let restored = try target.open()
        defer { restored.close() }
        #expect(restored.head == 5)
    }

    @Test func aDirectoryBeingRestoredIsNotOpened() throws {
        let t = try TestLog("held")
        defer { t.directory.remove() }
        try t.open().close()
        let held = try #require(try DirectoryUse.exclusive(t.directory.url))
        let error = #expect(throws: StoreError.self) { try t.open() }
        #expect(error?.code == .conflict)
        #expect(error?.message.contains("is being replaced by a restore") == true, "\(error?.message ?? "")")
        held.release()
        let log = try t.open()
        log.close()
    }
}
