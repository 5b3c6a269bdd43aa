import EventLog
import EventLogTesting
import Foundation
import Testing

@Suite(.serialized) struct CapacityTests {
    static let body = EventBody.json("{\"payload\":\"" + String(repeating: "y", count: 1000) + "\"}")

    @Test func theMapGrowsWhenFullAndNothingIsLost() async throws {
        let t = try TestLog("grow")
        defer { t.directory.remove() }
        let log = try t.open { $0.limits.initialMapSize = 1 << 20 }
        let startSize = log.environment.mapSize
        // ~12 MB through a 1 MiB map: several growths, in big and small transactions alike.
        try await withThrowingTaskGroup(of: Void.self) { group in
            for task in 0..<8 {
                group.addTask {
                    for batch in 0..<15 {
                        let events = (0..<10).map { _ in NewEvent(type: "Big", body: Self.body) }
                        try await log.append(AppendRequest(stream: "t\(task)-\(batch % 3)", events: events))
                    }
                }
            }
            try await group.waitForAll()
        }
        #expect(log.environment.mapSize > startSize)
        #expect(log.head == 1200)
        #expect(try log.events(EventQuery()).count == 1200)
    }

    @Test func reachingTheSizeLimitFailsTheAppendWithAClearErrorAndKeepsTheStoreUsable() async throws {
        let t = try TestLog("limit")
        defer { t.directory.remove() }
        let log = try t.open {
            $0.limits.initialMapSize = 1 << 20
            $0.limits.maximumMapSize = 2 << 20
        }
        var acknowledged = 0
        var failure: StoreError?
        for i in 0..<10_000 {
            do {
                let events = (0..<20).map { _ in NewEvent(type: "Big", body: Self.body) }
                try await log.append(AppendRequest(stream: "s\(i % 5)", events: events))
                acknowledged += 20
            } catch let error as StoreError {
                failure = error
                break
            }
        }
        #expect(failure?.code == .mapLimit)
        #expect(failure?.message.contains("size limit") == true)
        #expect(log.head == UInt64(acknowledged))
        #expect(try log.events(EventQuery()).count == acknowledged)
        // Reads still work, and a small append that fits still succeeds only if there is room; the log is consistent.
        log.close()
        let reopened = try t.open { $0.limits.maximumMapSize = 8 << 20 }
        let more = try await reopened.append(
            AppendRequest(stream: "after", events: [NewEvent(type: "Big", body: Self.body)]))
        #expect(more.positions == [UInt64(acknowledged) + 1])
    }

    /// A real full disk: a 3 MiB tmpfs (needs root, which the test machines and CI have).
    @Test func aFullDiskFailsTheCommitLosesNothingAcknowledgedAndRecovers() async throws {
        let mountPoint = try TemporaryDirectory("tmpfs")
        defer { mountPoint.remove() }
        try await run("/bin/mount", "-t", "tmpfs", "-o", "size=3m", "tmpfs", mountPoint.url.path)
        defer {
            // A defer cannot await; umount returns at once, so it is waited for here.
            if let umount = try? ChildProcess("/bin/umount", [mountPoint.url.path]) { umount.reap() }
        }
        let directory = mountPoint.url.appendingPathComponent("data")
        var configuration = EventLog.Configuration()
        configuration.limits.initialMapSize = 64 << 20
        let log = try EventLog(directory: directory, configuration: configuration)
        var acknowledged: [UInt64] = []
        var failure: StoreError?
        for i in 0..<20_000 {
            do {
                let r = try await log.append(
                    AppendRequest(stream: "s\(i % 7)", events: [NewEvent(type: "Big", body: Self.body)]))
                acknowledged += r.positions
            } catch let error as StoreError {
                failure = error
                break
            }
        }
        #expect(failure?.code == .diskFull, "\(String(describing: failure))")
        #expect(failure?.message.contains("disk") == true)
        #expect(log.head == UInt64(acknowledged.count))
        #expect(try log.events(EventQuery()).map(\.position) == acknowledged)
        // Free space (grow the tmpfs), and the same open store takes appends again.
        try await run("/bin/mount", "-o", "remount,size=16m", mountPoint.url.path)
        let after = try await log.append(
            AppendRequest(stream: "after", events: [NewEvent(type: "Big", body: Self.body)]))
        #expect(after.positions == [UInt64(acknowledged.count) + 1])
        log.close()
        let reopened = try EventLog(directory: directory)
        #expect(reopened.head == UInt64(acknowledged.count) + 1)
        reopened.close()
    }

    /// Runs `tool` to its end (posix_spawn: Foundation's `Process.run` has crashed the test process in full runs).
    private func run(_ tool: String, _ arguments: String...) async throws {
        let errors = FileManager.default.temporaryDirectory.appendingPathComponent("capacity-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: errors) }
        let status = await (try ChildProcess(tool, arguments, stderr: errors.path)).waitForExit()
        if status != 0 {
            let message = (try? String(contentsOf: errors, encoding: .utf8)) ?? ""
            throw StoreError(.io, "\(tool) \(arguments.joined(separator: " ")) failed: \(message)")
        }
    }
}
