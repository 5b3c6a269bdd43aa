import EventLog
import EventLogTesting
import Foundation
import Testing

/// The map grown when the data file reaches it, on a file system with room for only a little more: growth
/// itself needs no disk (the map is address space), so the store grows, fills the disk, says "disk full" — not a
/// map limit or a raw LMDB error — and takes appends again in the same process once space is freed.
@Suite(.serialized)
struct MapGrowthEdgeTests {
    static let body = EventBody.json(#"{"payload":""# + String(repeating: "m", count: 3000) + #""}"#)

    @Test func theMapGrowsUpToTheDisksEdgeThenTheAppendSaysDiskFullAndRecovers() async throws {
        let disk = try SmallFilesystem(megabytes: 6)
        defer { disk.unmount() }
        let directory = disk.mountPoint.url.appendingPathComponent("data")
        // Room kept aside, to free once the log filled the rest.
        try disk.fill(upTo: 2 << 20)
        var configuration = EventLog.Configuration()
        configuration.limits.initialMapSize = 1 << 20
        let log = try await Self.phase("opening the log with \(disk.available) bytes free") {
            try EventLog(directory: directory, configuration: configuration)
        }
        let startSize = log.environment.mapSize
        var acknowledged: [UInt64] = []
        var failure: StoreError?
        for index in 0..<5000 {
            do {
                let events = (0..<(1 + index % 4)).map { _ in NewEvent(type: "Filled", body: Self.body) }
                acknowledged += try await log.append(AppendRequest(stream: "s\(index % 5)", events: events)).positions
            } catch let error as StoreError {
                failure = error
                break
            }
        }
        #expect(log.environment.mapSize > startSize, "the map grew on the way")
        #expect(failure?.code == .diskFull, "\(String(describing: failure))")
        #expect(failure?.description.contains(directory.path) == true, "\(String(describing: failure))")
        #expect(try log.events(EventQuery()).map(\.position) == acknowledged, "every acknowledged event, nothing more")

        try disk.free()
        let freed = disk.available
        let after = try await Self.phase("the append after freeing (\(freed) bytes free)") {
            try await log.append(AppendRequest(stream: "after", events: [NewEvent(type: "Filled", body: Self.body)]))
        }
        #expect(after.positions == [UInt64(acknowledged.count) + 1])
        log.close()
        let reopened = try await Self.phase("reopening (\(disk.available) bytes free)") {
            try EventLog(directory: directory)
        }
        defer { reopened.close() }
        #expect(reopened.head == after.positions[0])
        let report = try await reopened.verify()
        #expect(report.isHealthy, "\(report.problems)")
    }

    /// Runs one step; a failure says which step and how much room there was.
    private static func phase<T>(_ what: String, _ step: () async throws -> T) async throws -> T {
        do {
            return try await step()
        } catch {
            throw MusterProcess.Unexpected("\(what): \(error)")
        }
    }
}
