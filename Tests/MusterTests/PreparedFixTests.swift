import EventLog
import Foundation
import Geo
import MusterWire
import Testing

@testable import Muster

/// A fix's crossings are worked out on a snapshot before the writer takes the fix; the writer takes them only while
/// what they were worked out on is still so.
@Suite struct PreparedFixTests {
    static let monday = RulesWorld.paris("2026-11-23T10:00:00")
    static let shop = RulesWorld.shop(rules: [RuleEngineTests.notify()])

    /// A fix inside the shop, `minutes` after Monday 10:00.
    static func inside(minutes: Double = 0) -> RuleEngine.LocationReport {
        RuleEngine.LocationReport(
            user: "ada", deviceId: "phone", latitude: 48.8700, longitude: 2.3300,
            at: monday.addingTimeInterval(minutes * 60))
    }

    static func prepare(_ report: RuleEngine.LocationReport, in world: RulesWorld) throws -> PreparedFix? {
        let fix = Fix(try Coordinate(latitude: report.latitude, longitude: report.longitude))
        return try world.log.read { snapshot in
            try PreparedFix(
                snapshot, cache: world.engine.cache, namespace: report.namespace, user: report.user,
                deviceId: report.deviceId, fix: fix)
        }
    }

    static func locate(
        _ report: RuleEngine.LocationReport, prepared: PreparedFix?, in world: RulesWorld
    ) async throws -> LocationAnswer {
        let fix = Fix(try Coordinate(latitude: report.latitude, longitude: report.longitude))
        return try await world.engine.locate(report, fix: fix, prepared: prepared)
    }

    /// A world with the shop defined and compiled: the writer has decided one fix, outside it.
    static func shopWorld() async throws -> RulesWorld {
        let world = try await RulesWorld()
        do {
            try await Areas(log: world.log).define([Self.shop])
            _ = try await world.leave(Self.shop, at: Self.monday)
            return world
        } catch {
            world.remove()
            throw error
        }
    }

    @Test func nothingIsPreparedBeforeTheWriterHasCompiledTheAreas() async throws {
        let world = try await RulesWorld()
        defer { world.remove() }
        try await Areas(log: world.log).define([Self.shop])
        #expect(try Self.prepare(Self.inside(), in: world) == nil)
        _ = try await world.leave(Self.shop, at: Self.monday)
        let prepared = try #require(try Self.prepare(Self.inside(), in: world))
        #expect(prepared.crossings == [FenceCrossing(id: "shop", trigger: .entry)])
    }

    @Test func aPreparationStillCurrentIsTakenAsItIs() async throws {
        let world = try await Self.shopWorld()
        defer { world.remove() }
        var prepared = try #require(try Self.prepare(Self.inside(minutes: 1), in: world))
        // Told that the fix crosses nothing, the writer believes it: it did not work the crossings out again.
        prepared.crossings = []
        let answer = try await Self.locate(Self.inside(minutes: 1), prepared: prepared, in: world)
        #expect(answer.transitions.isEmpty)
    }

    @Test func aFixOfTheSameDeviceInBetweenMakesTheWriterDecideAgain() async throws {
        let world = try await Self.shopWorld()
        defer { world.remove() }
        let prepared = try #require(try Self.prepare(Self.inside(minutes: 2), in: world))
        #expect(prepared.crossings == [FenceCrossing(id: "shop", trigger: .entry)])
        let entered = try await world.engine.report(Self.inside(minutes: 1))
        #expect(entered.transitions == [LocationAnswer.Transition(area: "shop", trigger: "on_entry")])
        // Already inside: the prepared entry is out of date and must not enter a second time.
        let again = try await Self.locate(Self.inside(minutes: 2), prepared: prepared, in: world)
        #expect(again.transitions.isEmpty)
        #expect(try world.inbox().map(\.body) == ["Welcome!"])
    }

    @Test func areasChangedInBetweenMakeTheWriterDecideAgain() async throws {
        let world = try await Self.shopWorld()
        defer { world.remove() }
        let prepared = try #require(try Self.prepare(Self.inside(minutes: 1), in: world))
        let kiosk = RulesWorld.shop("kiosk", radius: 30, rules: [RuleEngineTests.notify(text: "Kiosk")])
        try await Areas(log: world.log).define([kiosk])
        let answer = try await Self.locate(Self.inside(minutes: 1), prepared: prepared, in: world)
        #expect(
            Set(answer.transitions)
                == [
                    LocationAnswer.Transition(area: "shop", trigger: "on_entry"),
                    LocationAnswer.Transition(area: "kiosk", trigger: "on_entry"),
                ])
    }
}
