import EventLogTesting
import Foundation
import Testing

@testable import EventLog

#if canImport(Glibc)
    import Glibc
#endif

/// The data file is extended ahead of LMDB's last page, so that range can be read into the page cache a page at a
/// time before LMDB writes there; it is never cut short, and LMDB reads and writes it as before.
@Suite struct PageCachePrimerTests {
    /// A file of `size` bytes and a primer for it.
    static func file(_ directory: TemporaryDirectory, size: Int) throws -> (Int32, PageCachePrimer) {
        let path = directory.url.appendingPathComponent("data.mdb").path
        let descriptor = open(path, O_RDWR | O_CREAT, 0o600)
        #expect(descriptor >= 0)
        #expect(ftruncate(descriptor, off_t(size)) == 0)
        return (descriptor, try #require(PageCachePrimer(dataFile: path, pageSize: 4096)))
    }

    static func size(_ descriptor: Int32) -> Int {
        var status = stat()
        fstat(descriptor, &status)
        return Int(status.st_size)
    }

    static let mebibyte = 1 << 20

    @Test func theFileIsExtendedAheadOfTheLastPageAndAgainWhenLessThanHalfOfTheReachIsLeft() throws {
        let directory = try TemporaryDirectory("primer")
        defer { directory.remove() }
        let (descriptor, primer) = try Self.file(directory, size: 8192)
        defer { close(descriptor) }
        // A small store: 1 MiB ahead, rounded up to a MiB.
        primer.prepare(used: 8192, mapSize: 1 << 40, file: descriptor)
        #expect(Self.size(descriptor) == 2 * Self.mebibyte)
        primer.prepare(used: Self.mebibyte, mapSize: 1 << 40, file: descriptor)
        #expect(Self.size(descriptor) == 2 * Self.mebibyte, "a MiB still ahead: not extended again")
        primer.prepare(used: 7 * Self.mebibyte / 4, mapSize: 1 << 40, file: descriptor)
        #expect(Self.size(descriptor) == 3 * Self.mebibyte)
        // A large one: a quarter of its size ahead, at most 64 MiB.
        primer.prepare(used: 100 * Self.mebibyte, mapSize: 1 << 40, file: descriptor)
        #expect(Self.size(descriptor) == 125 * Self.mebibyte)
        primer.prepare(used: 1_000 * Self.mebibyte, mapSize: 1 << 40, file: descriptor)
        #expect(Self.size(descriptor) == 1_064 * Self.mebibyte)
    }

    @Test func aLongerFileIsNeverCutAndTheMapBoundsTheExtension() throws {
        let directory = try TemporaryDirectory("primer")
        defer { directory.remove() }
        let (descriptor, primer) = try Self.file(directory, size: 640 * Self.mebibyte)
        defer { close(descriptor) }
        primer.prepare(used: 64 * Self.mebibyte, mapSize: 1 << 40, file: descriptor)
        #expect(Self.size(descriptor) == 640 * Self.mebibyte)

        let small = try TemporaryDirectory("primer")
        defer { small.remove() }
        let (other, bounded) = try Self.file(small, size: 8192)
        defer { close(other) }
        bounded.prepare(used: 8192, mapSize: 1 << 20, file: other)
        #expect(Self.size(other) == 1 << 20, "not past the end of the map")
    }

    @Test func aLogWrittenPastSeveralExtensionsReadsBackWhole() async throws {
        let t = try TestLog("primed")
        defer { t.directory.remove() }
        let body = EventBody.json("{\"payload\":\"" + String(repeating: "p", count: 60_000) + "\"}")
        var log = try t.open()
        // ~150 MB: past several extensions, in commits big and small.
        for batch in 0..<50 {
            let events = (0..<(batch % 2 == 0 ? 100 : 1)).map { _ in NewEvent(type: "Big", body: body) }
            try await log.append(AppendRequest(stream: "s\(batch)", events: events))
        }
        let dataFile = t.directory.url.appendingPathComponent("data.mdb").path
        let used = log.environment.usedSize
        let size = try #require(try FileManager.default.attributesOfItem(atPath: dataFile)[.size] as? Int)
        #expect(size > used, "extended past LMDB's last page")
        log.close()
        log = try t.open()
        defer { log.close() }
        #expect(log.head == 2_525)
        #expect(try log.events(EventQuery()).count == 2_525)
        try await log.append(AppendRequest(stream: "after", events: [.sample()]))
        let report = try await log.verify()
        #expect(report.isHealthy, "\(report.problems)")
        #expect(report.events == 2_526)
    }
}
