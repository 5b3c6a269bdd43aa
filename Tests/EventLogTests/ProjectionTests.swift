import EventLog
import EventLogTesting
import Foundation
import Testing

@Suite struct ProjectionTests {
    func fill(_ log: EventLog, streams: Int, each: Int) async throws {
        for s in 0..<streams {
            try await log.append(
                AppendRequest(stream: "s\(s)", events: (0..<each).map { .sample("T\($0 % 3)", n: $0) }))
        }
    }

    @Test func inlineProjectionIsCurrentInTheAppendTransaction() async throws {
        let t = try TestLog()
        defer { t.directory.remove() }
        let log = try t.open { $0.projections.append(CountingProjection()) }
        try await fill(log, streams: 3, each: 4)
        // A command reading the projection in the writer sees every append before it.
        let seen = try await log.perform { scope -> UInt64 in
            try scope.append(AppendRequest(stream: "s1", events: [.sample()]))
            return try CountingProjection.count("s1", in: scope.projection("counts"))
        }
        #expect(seen == 5)
        let statuses = try log.read { try $0.projectionStatuses() }
        #expect(statuses.first { $0.name == "counts" }?.isCurrent == true)
    }

    @Test(arguments: [ProjectionMode.inline, .async])
    func theRunnerSkipsEventsAProjectionDoesNotHandle(mode: ProjectionMode) async throws {
        let t = try TestLog()
        defer { t.directory.remove() }
        let log = try t.open { $0.projections.append(CountingProjection(mode: mode, eventTypes: ["T1"])) }
        try await fill(log, streams: 2, each: 6)  // types T0 T1 T2 T0 T1 T2 per stream
        try await log.catchUpAsyncProjections()
        #expect(
            try log.read { try [$0.view(CountingProjection()).count("s0"), $0.view(CountingProjection()).count("s1")] }
                == [2, 2])
        try await log.rebuild(["counts"], eventsPerStep: 5)
        #expect(try log.read { try $0.view(CountingProjection()).count("s0") } == 2)
    }

    @Test func oneQueryServesAReadSnapshotAndTheWriter() async throws {
        let t = try TestLog()
        defer { t.directory.remove() }
        let log = try t.open { $0.projections.append(CountingProjection()) }
        try await fill(log, streams: 1, each: 3)
        #expect(try log.read { try counted($0) } == 3)
        let inWriter = try await log.perform { scope -> UInt64 in
            try scope.append(AppendRequest(stream: "s0", events: [.sample()]))
            return try counted(scope)
        }
        #expect(inWriter == 4)
    }

    @Test func typeAndNamespaceQueriesUseTheIndexesAndAgreeWithAScan() async throws {
        let t = try TestLog()
        defer { t.directory.remove() }
        let log = try t.open()
        try await fill(log, streams: 4, each: 6)
        try await log.append(AppendRequest(namespace: "other", stream: "s0", events: [.sample("T1")]))
        let all = try log.events(EventQuery())
        let byType = try log.events(EventQuery(type: "T1"))
        #expect(byType.map(\.position) == all.filter { $0.type == "T1" }.map(\.position))
        let byNamespace = try log.events(EventQuery(namespace: "other"))
        #expect(byNamespace.map(\.position) == [25])
        let limited = try log.events(EventQuery(type: "T0", from: 5, limit: 2))
        #expect(limited.map(\.position) == all.filter { $0.type == "T0" && $0.position >= 5 }.prefix(2).map(\.position))
    }

    @Test func rebuildProducesTheSameStateAndMutesSideEffects() async throws {
        let t = try TestLog()
        defer { t.directory.remove() }
        let log = try t.open { $0.projections.append(CountingProjection()) }
        try await fill(log, streams: 5, each: 10)
        let before = try log.read { r in
            try (0..<5).map { try CountingProjection.count("s\($0)", in: r.projection("counts")) }
        }
        var steps: [RebuildProgress] = []
        let collected = Collected<RebuildProgress>()
        try await log.rebuild(["counts"], eventsPerStep: 7) { collected.add($0) }
        steps = collected.items
        let after = try log.read { r in
            try (0..<5).map { try CountingProjection.count("s\($0)", in: r.projection("counts")) }
        }
        #expect(after == before)
        #expect(after == [10, 10, 10, 10, 10])
        #expect(steps.count > 5)
        #expect(steps.last?.isFinished == true)
        // The rebuilt generation carries no side effects: replay muted them.
        let effects = try log.read { try CountingProjection.sideEffects(in: $0.projection("counts")) }
        #expect(effects == 0)
        let status = try log.read { try $0.projectionStatuses() }.first { $0.name == "counts" }
        #expect(status?.generation == 2)
    }

    @Test func aChangedVersionIsRebuiltBlueGreenWhileTheOldStateKeepsServing() async throws {
        let t = try TestLog()
        do {
            let log = try t.open { $0.projections.append(CountingProjection(version: 1)) }
            try await fill(log, streams: 2, each: 3)
            log.close()
        }
        let log = try t.open { $0.projections.append(CountingProjection(version: 2)) }
        defer { t.directory.remove() }
        #expect(try log.projectionsNeedingRebuild() == ["counts"])
        // Still answering from generation 1 (built by version 1) until the swap.
        #expect(try log.read { try CountingProjection.count("s0", in: $0.projection("counts")) } == 3)
        try await log.rebuild(["counts"])
        #expect(try log.read { try CountingProjection.count("s0", in: $0.projection("counts")) } == 6)
        #expect(try log.projectionsNeedingRebuild().isEmpty)
    }

    @Test func anInterruptedRebuildResumesFromItsCheckpointAfterReopening() async throws {
        let t = try TestLog()
        defer { t.directory.remove() }
        do {
            let log = try t.open { $0.projections.append(CountingProjection(version: 1)) }
            try await fill(log, streams: 4, each: 25)
            log.close()
        }
        do {
            let log = try t.open { $0.projections.append(CountingProjection(version: 2)) }
            let task = Task {
                try await log.rebuild(["counts"], eventsPerStep: 10) { step in
                    if step.checkpoint >= 30 { withUnsafeCurrentTask { $0?.cancel() } }
                }
            }
            await #expect(throws: CancellationError.self) { try await task.value }
            let status = try log.read { try $0.projectionStatuses() }.first { $0.name == "counts" }
            #expect(status?.rebuildCheckpoint == 30)
            #expect(status?.storedVersion == 1)
            log.close()
        }
        let log = try t.open { $0.projections.append(CountingProjection(version: 2)) }
        let collected = Collected<RebuildProgress>()
        try await log.rebuild(["counts"], eventsPerStep: 10) { collected.add($0) }
        #expect(collected.items.first?.checkpoint == 40)
        #expect(try log.read { try CountingProjection.count("s3", in: $0.projection("counts")) } == 50)
    }

    @Test func cancellingARebuildKeepsTheActiveState() async throws {
        let t = try TestLog()
        defer { t.directory.remove() }
        let log = try t.open { $0.projections.append(CountingProjection()) }
        try await fill(log, streams: 1, each: 5)
        try await log.perform { scope in _ = scope }  // an empty transaction commits fine
        let task = Task {
            try await log.rebuild(["counts"], eventsPerStep: 2) { _ in withUnsafeCurrentTask { $0?.cancel() } }
        }
        _ = await task.result
        try await log.cancelRebuild("counts")
        let status = try log.read { try $0.projectionStatuses() }.first { $0.name == "counts" }
        #expect(status?.rebuildCheckpoint == nil)
        #expect(status?.generation == 1)
        #expect(try log.read { try CountingProjection.count("s0", in: $0.projection("counts")) } == 5)
    }

    @Test func asyncProjectionsApplyEachEventExactlyOnce() async throws {
        let t = try TestLog()
        defer { t.directory.remove() }
        let log = try t.open { $0.projections.append(CountingProjection(name: "later", mode: .async)) }
        try await fill(log, streams: 2, each: 10)
        let lagging = try log.read { try $0.projectionStatuses() }.first { $0.name == "later" }
        #expect(lagging?.checkpoint == 0)
        #expect(lagging?.isCurrent == false)
        try await log.catchUpAsyncProjections(eventsPerStep: 3)
        try await log.catchUpAsyncProjections()
        #expect(try log.read { try CountingProjection.count("s1", in: $0.projection("later")) } == 10)
        let stats = try log.read { try LogStatistics.rows($0.projection(LogStatistics.name)) }
        #expect(stats.reduce(0) { $0 + $1.events } == 20)
        #expect(Set(stats.map(\.type)) == ["T0", "T1", "T2"])
    }

    @Test func aProjectionAddedToAnExistingLogIsBuiltBeforeItAnswers() async throws {
        let t = try TestLog()
        defer { t.directory.remove() }
        do {
            let log = try t.open()
            try await fill(log, streams: 2, each: 2)
            log.close()
        }
        let log = try t.open { $0.projections.append(CountingProjection()) }
        let error = #expect(throws: StoreError.self) { try log.read { try $0.projection("counts") } }
        #expect(error?.code == .projectionNotReady)
        #expect(error?.remedy == .rebuild(projection: "counts"))
        try await log.rebuild(try log.projectionsNeedingRebuild())
        #expect(try log.read { try CountingProjection.count("s1", in: $0.projection("counts")) } == 2)
    }

    @Test func theRunnerAsksAProjectionForItsEventTypesOnceNotPerEvent() async throws {
        let t = try TestLog()
        defer { t.directory.remove() }
        let asked = Collected<Int>()
        let log = try t.open { $0.projections.append(AskedTypesProjection(asked: asked)) }
        let before = asked.items.count
        try await fill(log, streams: 4, each: 25)
        #expect(asked.items.count == before)
    }
}

/// Notes each time its `eventTypes` is asked for: a domain projection builds that set anew on every call.
private struct AskedTypesProjection: Projection {
    let asked: Collected<Int>
    var name: String { "asked" }
    var version: UInt32 { 1 }
    var mode: ProjectionMode { .inline }
    var tables: [String] { ["rows"] }
    var eventTypes: Set<String>? {
        asked.add(1)
        return ["T1"]
    }

    func apply(_ event: RecordedEvent, to state: ProjectionState) throws {}
}

/// Collects values from a `@Sendable` callback.
final class Collected<T: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var values: [T] = []
    func add(_ value: T) { lock.withLock { values.append(value) } }
    var items: [T] { lock.withLock { values } }
}

extension ProjectionView<CountingProjection> {
    /// The count of `stream`, as a projection declares a query on its view.
    func count(_ stream: String) throws -> UInt64 { try CountingProjection.count(stream, in: state) }
}

/// One query for a read snapshot and the writer alike.
private func counted(_ snapshot: some LogSnapshot) throws -> UInt64 {
    try snapshot.view(CountingProjection()).count("s0")
}
