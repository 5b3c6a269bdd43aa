import EventLog
import EventLogTesting
import Foundation
import MusterWire
import Testing

@testable import Muster

/// A geotrigger's monitor (seed 003: "created with the geotrigger, handles monitoring and reporting"): it
/// runs from the definition on, stops and starts again, and while it runs the message expression stays.
@Suite struct GeotriggerMonitorTests {
    static let monday = GeotriggerTests.monday

    /// The seed's fence "Area A" with the seed's expression, as geotrigger `areas`.
    static func areaA(expression: String = #""You have " + $fencenotificationtype + " " + $fencefeature.area_name"#)
        throws -> Geotrigger
    {
        try Geotrigger.read(Data(GeotriggerTests.definition(expression: expression).utf8), id: "areas")
    }

    @Test func aMonitorRunsFromTheDefinitionOn() async throws {
        let world = try await RulesWorld()
        defer { world.remove() }
        let geotriggers = Geotriggers(log: world.log)
        try await geotriggers.define(try Self.areaA())
        #expect(try geotriggers.monitor(id: "areas") == GeotriggerMonitor(id: "areas", monitor: .running))
        let entered = try await GeotriggerTests.report(world, metresNorth: 0, at: Self.monday)
        #expect(entered.geotriggers.first?.fired == true)
    }

    @Test func aStoppedMonitorNotifiesNoOneAndTheAuditSaysWhy() async throws {
        let world = try await RulesWorld()
        defer { world.remove() }
        let geotriggers = Geotriggers(log: world.log)
        try await geotriggers.define(try Self.areaA())
        #expect(try await geotriggers.stop(id: "areas", actor: "ada"))
        #expect(try geotriggers.monitor(id: "areas").monitor == .stopped)

        let entered = try await GeotriggerTests.report(world, metresNorth: 0, at: Self.monday)
        let outcome = try #require(entered.geotriggers.first)
        #expect(outcome.notificationType == "entered")
        #expect(!outcome.fired)
        #expect(outcome.reason == "the monitor is stopped")
        #expect(outcome.messageId == nil)
        #expect(try world.inbox().isEmpty)

        let audit = try Audit(log: world.log).entries()
        let stopped = try #require(audit.first { $0.what == .geotriggerMonitorStopped })
        #expect(stopped.geotrigger == "areas" && stopped.actor == "ada")
        #expect(stopped.detail == "the monitor of geotrigger areas stopped")
        let notified = try #require(audit.first { $0.what == .geotriggerNotified })
        #expect(notified.fired == false && notified.reason == "the monitor is stopped")
        #expect(notified.detail.hasSuffix("no notification, the monitor is stopped"))
    }

    @Test func startedAgainItNotifiesAgain() async throws {
        let world = try await RulesWorld()
        defer { world.remove() }
        let geotriggers = Geotriggers(log: world.log)
        try await geotriggers.define(try Self.areaA())
        try await geotriggers.stop(id: "areas")
        _ = try await GeotriggerTests.report(world, metresNorth: 0, at: Self.monday)
        #expect(try await geotriggers.start(id: "areas"))
        #expect(try geotriggers.monitor(id: "areas").monitor == .running)

        // Still inside since the stopped entry: the next crossing is the exit, and it notifies.
        let exited = try await GeotriggerTests.report(world, metresNorth: 200, at: Self.monday + 60)
        #expect(exited.geotriggers.map(\.fired) == [true])
        #expect(try world.inbox().map(\.body) == ["You have exited Area A"])
        #expect(try Audit(log: world.log).entries().contains { $0.what == .geotriggerMonitorStarted })
    }

    @Test func startingARunningMonitorOrStoppingAStoppedOneWritesNothing() async throws {
        let world = try await RulesWorld()
        defer { world.remove() }
        let geotriggers = Geotriggers(log: world.log)
        try await geotriggers.define(try Self.areaA())
        var head = world.log.head
        #expect(try await geotriggers.start(id: "areas") == false)
        #expect(world.log.head == head)
        try await geotriggers.stop(id: "areas")
        head = world.log.head
        #expect(try await geotriggers.stop(id: "areas") == false)
        #expect(world.log.head == head)
    }

    @Test func anUnknownGeotriggerHasNoMonitor() async throws {
        let world = try await RulesWorld()
        defer { world.remove() }
        let geotriggers = Geotriggers(log: world.log)
        let error = await #expect(throws: MusterError.self) { try await geotriggers.stop(id: "nowhere") }
        #expect(error?.code == .notFound)
        #expect(error?.message == #"no geotrigger "nowhere" in namespace default"#)
        #expect(throws: MusterError.self) { try geotriggers.monitor(id: "nowhere") }
    }

    @Test func theExpressionCannotChangeWhileTheMonitorRuns() async throws {
        let world = try await RulesWorld()
        defer { world.remove() }
        let geotriggers = Geotriggers(log: world.log)
        try await geotriggers.define(try Self.areaA())
        let head = world.log.head
        let error = await #expect(throws: MusterError.self) {
            try await geotriggers.define(try Self.areaA(expression: #""Hello""#))
        }
        #expect(error?.code == .conflict && error?.field == "messageExpression")
        #expect(
            error?.message.hasPrefix("messageExpression: cannot change while the monitor of geotrigger areas runs")
                == true)
        #expect(world.log.head == head)

        var renamed = try Self.areaA()
        renamed.name = "Area A, renamed"
        #expect(try await geotriggers.define(renamed))

        try await geotriggers.stop(id: "areas")
        #expect(try await geotriggers.define(try Self.areaA(expression: #""Hello""#)))
        #expect(try geotriggers.geotrigger(id: "areas")?.messageExpression == #""Hello""#)
        #expect(try geotriggers.monitor(id: "areas").monitor == .stopped)
    }

    @Test func aGeotriggerRemovedAndDefinedAgainRuns() async throws {
        let world = try await RulesWorld()
        defer { world.remove() }
        let geotriggers = Geotriggers(log: world.log)
        try await geotriggers.define(try Self.areaA())
        try await geotriggers.stop(id: "areas")
        try await geotriggers.remove(id: "areas")
        try await geotriggers.define(try Self.areaA())
        #expect(try geotriggers.monitor(id: "areas").monitor == .running)
    }

    @Test func theMonitorsSurviveARestartAndARebuild() async throws {
        var world = try await RulesWorld()
        defer { world.remove() }
        try await Geotriggers(log: world.log).define(try Self.areaA())
        try await Geotriggers(log: world.log).define(
            try Geotrigger.read(
                Data(GeotriggerTests.definition(expression: #""other""#).utf8), id: "other"))
        try await Geotriggers(log: world.log).stop(id: "areas")

        try world.restart()
        let listed = try Geotriggers(log: world.log).monitored()
        #expect(listed.map(\.geotrigger.id) == ["areas", "other"])
        #expect(listed.map(\.monitor) == [.stopped, .running])

        try await world.log.rebuild([GeotriggersProjection.name])
        #expect(try Geotriggers(log: world.log).monitored().map(\.monitor) == [.stopped, .running])
        let entered = try await GeotriggerTests.report(world, metresNorth: 0, at: Self.monday)
        #expect(entered.geotriggers.sorted { $0.geotrigger < $1.geotrigger }.map(\.fired) == [false, true])
    }

    @Test func theMonitorEventsRenderAsJSON() async throws {
        let world = try await RulesWorld()
        defer { world.remove() }
        let geotriggers = Geotriggers(log: world.log)
        try await geotriggers.define(try Self.areaA())
        try await geotriggers.stop(id: "areas")
        try await geotriggers.start(id: "areas")
        let events = try world.log.events(EventQuery(stream: "geotriggers"))
        #expect(events.map(\.type) == ["GeotriggerDefined", "GeotriggerMonitorStopped", "GeotriggerMonitorStarted"])
        let rendered = events.dropFirst().compactMap {
            EventCatalogue.json($0).map { String(decoding: $0, as: UTF8.self) }
        }
        #expect(rendered == [#"{"id":"areas"}"#, #"{"id":"areas"}"#])
    }

    @Test func theListingShowsTheMonitor() throws {
        let geotrigger = try Self.areaA()
        #expect(geotrigger.json(monitor: .stopped).objectValue?["monitor"]?.stringValue == "stopped")
        let read = try Geotrigger.read(geotrigger.json(monitor: .running).jsonData(), id: "areas")
        #expect(read == geotrigger)
    }
}
