import EventLog
import EventLogTesting
import Foundation
import Testing

/// The map grown when the data file reaches it, on a file system with room for only a little more: growth
/// itself needs no disk (the map is address space), so the store grows, fills the disk, says "disk full" — not a
/// map limit or a raw LMDB error — and takes appends again in the same process once space is freed.
@Suite(
    .serialized,
    .disabled(if: SmallFilesystem.unavailable != nil, Comment(rawValue: SmallFilesystem.unavailable ?? "")))
struct MapGrowthEdgeTests {
    static let body = EventBody.json(#"{"payload":""# + String(repeating: "m", count: 3000) + #""}"#)

    @Test func theMapGrowsUpToTheDisksEdgeThenTheAppendSaysDiskFullAndRecovers() async throws {
        let disk = try SmallFilesystem(megabytes: 6)
        defer { disk.unmount() }
        // Room kept aside, to free once the log filled the rest.
        try disk.fill(upTo: 2 << 20)
        var configuration = EventLog.Configuration()
        configuration.limits.initialMapSize = 1 << 20
        let log = try EventLog(
            directory: disk.mountPoint.url.appendingPathComponent("data"), configuration: configuration)
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
        #expect(failure?.description.contains(disk.mountPoint.url.path) == true, "\(String(describing: failure))")
        #expect(try log.events(EventQuery()).map(\.position) == acknowledged, "every acknowledged event, nothing more")

        try disk.free()
        let after = try await log.append(
            AppendRequest(stream: "after", events: [NewEvent(type: "Filled", body: Self.body)]))
        #expect(after.positions.count == 1)
        #expect(log.head == after.positions[0])
        log.close()
        let reopened = try EventLog(directory: disk.mountPoint.url.appendingPathComponent("data"))
        defer { reopened.close() }
        #expect(reopened.head == after.positions[0])
        let report = try await reopened.verify()
        #expect(report.isHealthy, "\(report.problems)")
    }
}
