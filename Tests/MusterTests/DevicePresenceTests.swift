import EventLog
import EventLogTesting
import Foundation
import Geo
import Muster
import MusterWire
import Testing

/// Presence in areas and fences belongs to (namespace, user, device): one user's reports never move
/// another user's device (issue 10), and a device id registered to someone else is refused.
@Suite struct DevicePresenceTests {
    static let monday = RulesWorld.paris("2026-11-23T10:00:00")
    static let shop = RulesWorld.shop(rules: [
        AreaRule(id: "hello", trigger: "on_entry", action: AreaRule.Action(notifyUser: "Welcome!"))
    ])
    /// A fence at the shop whose rule notifies entries.
    static let lobby = #"""
        {"name":"Lobby","rule":"enter","messageExpression":"\"You have \" + $fencenotificationtype",
         "fences":{"type":"FeatureCollection","features":[{"type":"Feature","id":"lobby",
           "geometry":{"type":"Point","coordinates":[2.33,48.87]},"properties":{"radius":20}}]}}
        """#

    /// ada's world with bob and cy, the shop and the lobby geotrigger.
    static func world() async throws -> RulesWorld {
        let world = try await RulesWorld()
        for user in ["bob", "cy"] {
            _ = try await Directory(log: world.log).addUser(user, password: nil, timeZone: "Europe/Paris")
        }
        try await Areas(log: world.log).define([shop])
        try await Geotriggers(log: world.log).define(try Geotrigger.read(Data(lobby.utf8), id: "lobby"))
        return world
    }

    static func fix(_ user: String, _ device: String, metresNorth: Double, at: Date) -> RuleEngine.LocationReport {
        RuleEngine.LocationReport(
            user: user, deviceId: device, latitude: 48.87 + metresNorth / 111_195, longitude: 2.33, at: at)
    }

    static func inbox(_ world: RulesWorld, _ user: String) throws -> [String] {
        try Notifications(log: world.log).inbox(user: user).map(\.body)
    }

    @Test func anotherUsersFarFixForTheSameDeviceIdDoesNotMoveTheDevice() async throws {
        let world = try await Self.world()
        defer { world.remove() }
        let entered = try await world.engine.report(Self.fix("cy", "cy-phone", metresNorth: 0, at: Self.monday))
        #expect(entered.transitions == [LocationAnswer.Transition(area: "shop", trigger: "on_entry")])
        #expect(entered.outcome("hello")?.fired == true)
        #expect(entered.geotriggers.map(\.fired) == [true])

        // bob reports a fix 5 km away for cy's device id (not registered to anyone).
        let far = try await world.engine.report(Self.fix("bob", "cy-phone", metresNorth: 5000, at: Self.monday + 60))
        #expect(far.transitions.isEmpty, "bob's fix moved cy's device: \(far.transitions)")
        #expect(far.geotriggers.isEmpty)

        // cy is still in the shop: her next fix there neither enters again nor fires anything.
        let again = try await world.engine.report(Self.fix("cy", "cy-phone", metresNorth: 2, at: Self.monday + 120))
        #expect(again.transitions.isEmpty)
        #expect(again.outcomes.isEmpty)
        #expect(again.geotriggers.isEmpty)
        #expect(try Self.inbox(world, "cy") == ["Welcome!", "You have entered"])

        // bob's own presence for that id is his: at the shop, he enters it and is told.
        let bobIn = try await world.engine.report(Self.fix("bob", "cy-phone", metresNorth: 0, at: Self.monday + 180))
        #expect(bobIn.transitions == [LocationAnswer.Transition(area: "shop", trigger: "on_entry")])
        #expect(try Self.inbox(world, "bob") == ["Welcome!", "You have entered"])
        #expect(try Self.inbox(world, "cy").count == 2)

        // The audit tells the two apart.
        let explained = try Audit(log: world.log).entries(Audit.Filter(area: "shop")).map(\.detail)
        #expect(
            explained.filter { $0.contains("entered area shop") } == [
                "cy's device cy-phone entered area shop (location)",
                "bob's device cy-phone entered area shop (location)",
            ], "\(explained)")
        #expect(!explained.contains { $0.contains("left area shop") }, "\(explained)")
    }

    @Test func transitionsAndSightingsAreKeptApartByUserToo() async throws {
        let world = try await Self.world()
        defer { world.remove() }
        let beacon = Area(
            id: "till", region: .beacon(proximityUUID: "566C5595-6EC7-4F08-909F-C954BDCA6CD3", major: 42, minor: nil),
            rules: [AreaRule(id: "near", trigger: "on_entry", action: AreaRule.Action(notifyUser: "At the till"))])
        try await Areas(log: world.log).define([beacon])
        let cyIn = try await world.engine.report(
            RuleEngine.TransitionReport(
                user: "cy", deviceId: "tablet", area: "shop", trigger: "on_entry", at: Self.monday))
        #expect(cyIn.transitions.count == 1)
        // bob's exit for the same id is not cy's: bob was never inside, so nothing changes.
        let bobOut = try await world.engine.report(
            RuleEngine.TransitionReport(
                user: "bob", deviceId: "tablet", area: "shop", trigger: "on_exit", at: Self.monday + 10))
        #expect(bobOut.transitions.isEmpty)
        #expect(bobOut.ignored?.contains("already outside") == true)
        let cyAgain = try await world.engine.report(
            RuleEngine.TransitionReport(
                user: "cy", deviceId: "tablet", area: "shop", trigger: "on_entry", at: Self.monday + 20))
        #expect(cyAgain.transitions.isEmpty)

        func sighting(_ user: String, at: Date) -> RuleEngine.BeaconReport {
            RuleEngine.BeaconReport(
                user: user, deviceId: "tablet", proximityUUID: "566C5595-6EC7-4F08-909F-C954BDCA6CD3", major: 42,
                minor: 1, rssi: -60, at: at)
        }
        #expect(try await world.engine.report(sighting("cy", at: Self.monday + 30)).transitions.count == 1)
        #expect(try await world.engine.report(sighting("bob", at: Self.monday + 31)).transitions.count == 1)
        #expect(try await world.engine.report(sighting("cy", at: Self.monday + 32)).transitions.isEmpty)
        #expect(try Self.inbox(world, "cy") == ["Welcome!", "At the till"])
        #expect(try Self.inbox(world, "bob") == ["At the till"])
    }

    @Test func aDeviceRegisteredToAnotherUserIsRefusedAndNothingIsRecorded() async throws {
        let world = try await Self.world()
        defer { world.remove() }
        try await Directory(log: world.log).register(
            PushTargetRegistered(
                user: "cy", deviceId: "cy-phone", deviceName: "cy's phone", platform: .apns, token: nil))
        _ = try await world.engine.report(Self.fix("cy", "cy-phone", metresNorth: 0, at: Self.monday))
        let head = world.log.head
        let reports: [@Sendable () async throws -> LocationAnswer] = [
            { try await world.engine.report(Self.fix("bob", "cy-phone", metresNorth: 5000, at: Self.monday + 60)) },
            {
                try await world.engine.report(
                    RuleEngine.TransitionReport(
                        user: "bob", deviceId: "cy-phone", area: "shop", trigger: "on_exit", at: Self.monday + 60))
            },
            {
                try await world.engine.report(
                    RuleEngine.BeaconReport(
                        user: "bob", deviceId: "cy-phone", proximityUUID: "566C5595-6EC7-4F08-909F-C954BDCA6CD3",
                        major: 42, minor: 1, rssi: -60, at: Self.monday + 60))
            },
        ]
        for report in reports {
            let error = try await #require(throws: MusterError.self) { _ = try await report() }
            #expect(error.code == .conflict)
            #expect(error.message.hasPrefix("deviceId: device \"cy-phone\" is registered to another user"), "\(error)")
            #expect(!error.message.contains("cy's"), "the owner's name or device name leaked: \(error)")
        }
        #expect(world.log.head == head)
        // cy herself still reports, and is still inside.
        let again = try await world.engine.report(Self.fix("cy", "cy-phone", metresNorth: 2, at: Self.monday + 120))
        #expect(again.transitions.isEmpty && again.outcomes.isEmpty)
        // Once cy unregisters the device, the id is anyone's again (kept apart by user).
        try await Directory(log: world.log).unregister(user: "cy", deviceId: "cy-phone")
        let bob = try await world.engine.report(Self.fix("bob", "cy-phone", metresNorth: 5000, at: Self.monday + 180))
        #expect(bob.transitions.isEmpty)
    }

    @Test func aRebuiltDataDirectoryKeepsPresenceByUser() async throws {
        var world = try await Self.world()
        defer { world.remove() }
        _ = try await world.engine.report(Self.fix("cy", "cy-phone", metresNorth: 0, at: Self.monday))
        _ = try await world.engine.report(Self.fix("bob", "cy-phone", metresNorth: 0, at: Self.monday + 10))
        try world.restart()
        try await world.log.rebuild([RulesProjection.name, GeotriggersProjection.name])
        let bobOut = try await world.engine.report(
            Self.fix("bob", "cy-phone", metresNorth: 5000, at: Self.monday + 20))
        #expect(bobOut.transitions == [LocationAnswer.Transition(area: "shop", trigger: "on_exit")])
        #expect(bobOut.geotriggers.map(\.notificationType) == ["exited"])
        let cyStill = try await world.engine.report(Self.fix("cy", "cy-phone", metresNorth: 1, at: Self.monday + 30))
        #expect(cyStill.transitions.isEmpty && cyStill.geotriggers.isEmpty)
    }
}
