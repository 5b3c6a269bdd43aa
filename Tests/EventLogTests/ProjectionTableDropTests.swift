import EventLogTesting
import Foundation
import Testing

@testable import EventLog

/// A projection's old generation is dropped whole when a rebuild swaps in: also the tables its new version no
/// longer declares.
@Suite struct ProjectionTableDropTests {
    /// Version 1 keeps two tables, version 2 only one of them.
    struct Shrinking: Projection {
        var version: UInt32
        var name: String { "shrinking" }
        var mode: ProjectionMode { .inline }
        var tables: [String] { version == 1 ? ["kept", "dropped"] : ["kept"] }
        var eventTypes: Set<String>? { nil }

        func apply(_ event: RecordedEvent, to state: ProjectionState) throws {
            try state.put("kept", Key.position(event.position), [])
            if version == 1 { try state.put("dropped", Key.position(event.position), []) }
        }
    }

    func tables(_ directory: URL) throws -> [String] {
        let environment = try Environment(directory: directory)
        defer { environment.close() }
        return try environment.tableNames().filter { $0.hasPrefix("p.shrinking.") }.sorted()
    }

    @Test func aTableTheNewVersionNoLongerDeclaresIsDroppedWithTheOldGeneration() async throws {
        let t = try TestLog()
        defer { t.directory.remove() }
        do {
            let log = try t.open { $0.projections.append(Shrinking(version: 1)) }
            try await log.append(AppendRequest(stream: "s", events: [.sample(), .sample()]))
            log.close()
        }
        #expect(try tables(t.directory.url) == ["p.shrinking.1.dropped", "p.shrinking.1.kept"])
        do {
            let log = try t.open { $0.projections.append(Shrinking(version: 2)) }
            try await log.rebuild(["shrinking"])
            #expect(try log.read { try $0.projection("shrinking").count("kept") } == 2)
            log.close()
        }
        #expect(try tables(t.directory.url) == ["p.shrinking.2.kept"])
    }
}
