import EventLog
import EventLogTesting
import Forms
import Foundation
import Geo
import MusterWire
import Testing

@testable import Muster

/// Fence geotriggers (seed 003) fired by location reports.
@Suite struct GeotriggerTests {
    static let monday = RulesWorld.paris("2026-11-23T10:00:00")

    /// One GeoJSON fence: a 10 m circle named "Area A" at (48.87, 2.33).
    static func definition(rule: String = "enterOrExit", buffer: Double = 0, expression: String) -> String {
        let quoted = String(decoding: try! JSONEncoder().encode(expression), as: UTF8.self)
        return #"""
            {"name":"Areas","rule":"\#(rule)","bufferDistance":\#(buffer),"messageExpression":\#(quoted),
             "requestedActions":["startTracking","stopTracking"],
             "fences":{"type":"FeatureCollection","features":[{"type":"Feature","id":"a",
               "geometry":{"type":"Point","coordinates":[2.33,48.87]},"properties":{"radius":10,"area_name":"Area A"}}]}}
            """#
    }

    static func report(_ world: RulesWorld, metresNorth: Double, at: Date) async throws -> LocationAnswer {
        try await world.engine.report(
            RuleEngine.LocationReport(
                user: "ada", deviceId: "phone", latitude: 48.87 + metresNorth / 111_195, longitude: 2.33, at: at))
    }

    @Test func theSeedsExpressionNamesTheFenceEntered() async throws {
        let world = try await RulesWorld()
        defer { world.remove() }
        let geotrigger = try Geotrigger.read(
            Data(
                Self.definition(expression: #""You have " + $fencenotificationtype + " " + $fencefeature.area_name"#)
                    .utf8),
            id: "areas")
        try await Geotriggers(log: world.log).define(geotrigger)
        let entered = try await Self.report(world, metresNorth: 0, at: Self.monday)
        let outcome = try #require(entered.geotriggers.first)
        #expect(outcome.notificationType == "entered" && outcome.fired)
        #expect(outcome.message == "You have entered Area A")
        let exited = try await Self.report(world, metresNorth: 200, at: Self.monday + 60)
        #expect(exited.geotriggers.first?.message == "You have exited Area A")
        let inbox = try world.inbox()
        #expect(inbox.map(\.body) == ["You have entered Area A", "You have exited Area A"])
        let message = try #require(try Notifications(log: world.log).message(id: inbox[0].messageId, user: "ada"))
        #expect(Payload.parse(message.payload).validate().isValid)
        let info = try #require(
            try JSONValue(json: message.payload).objectValue?["geotriggerNotification"]?.objectValue)
        #expect(info["fenceFeature"]?.objectValue?["area_name"]?.stringValue == "Area A")
        #expect(info["feedFeature"]?.objectValue?["deviceId"]?.stringValue == "phone")
        #expect(info["requestedActions"]?.arrayValue?.count == 2)
    }

    @Test func aDictionaryExpressionGivesActionsAndTheRuleChoosesWhichCrossingsNotify() async throws {
        let world = try await RulesWorld()
        defer { world.remove() }
        let expression = #"""
            {"message": "Hello world", "actions": [IIf($fencenotificationtype == "entered", "startTracking", "stopTracking")], "log": Upper($fencefeature.area_name)}
            """#
        try await Geotriggers(log: world.log).define(
            try Geotrigger.read(Data(Self.definition(rule: "exit", expression: expression).utf8), id: "t"))
        let entered = try await Self.report(world, metresNorth: 0, at: Self.monday)
        #expect(entered.geotriggers.first?.fired == false)
        #expect(entered.geotriggers.first?.reason == "the rule is exit")
        let exited = try await Self.report(world, metresNorth: 200, at: Self.monday + 60)
        let outcome = try #require(exited.geotriggers.first)
        #expect(outcome.fired && outcome.message == "Hello world" && outcome.actions == ["stopTracking"])
        let recorded = try world.log.events(EventQuery(type: GeotriggerNotified.type)).compactMap {
            try GeotriggerNotified.decode($0)
        }
        #expect(recorded.last?.properties == #"{"log":"AREA A"}"#)
    }

    @Test func theBufferDistanceWidensEveryFence() async throws {
        let world = try await RulesWorld()
        defer { world.remove() }
        try await Geotriggers(log: world.log).define(
            try Geotrigger.read(Data(Self.definition(buffer: 40, expression: #""in""#).utf8), id: "wide"))
        #expect(try await Self.report(world, metresNorth: 30, at: Self.monday).geotriggers.first?.fired == true)
    }

    @Test func aPolygonFenceWithABufferIsEnteredAndLeft() async throws {
        let world = try await RulesWorld()
        defer { world.remove() }
        let definition = #"""
            {"name":"Square","rule":"enterOrExit","bufferDistance":30,
             "messageExpression":"$fencenotificationtype + \" \" + $fencefeature.name",
             "fences":{"type":"FeatureCollection","features":[{"type":"Feature","id":"sq",
               "geometry":{"type":"Polygon","coordinates":[[[2.3295,48.8695],[2.3305,48.8695],[2.3305,48.8705],[2.3295,48.8705],[2.3295,48.8695]]]},
               "properties":{"name":"the square"}}]}}
            """#
        let geotrigger = try Geotrigger.read(Data(definition.utf8), id: "square")
        #expect(geotrigger.fences.first?.ring?.count == 5)
        try await Geotriggers(log: world.log).define(geotrigger)
        // 20 m north of the square's north edge (55.6 m from the centre + 20 m): within the buffer.
        let near = try await Self.report(world, metresNorth: 75, at: Self.monday)
        #expect(near.geotriggers.map(\.message) == ["entered the square"])
        let away = try await Self.report(world, metresNorth: 300, at: Self.monday + 60)
        #expect(away.geotriggers.map(\.message) == ["exited the square"])
        let stored = try #require(try Geotriggers(log: world.log).geotrigger(id: "square"))
        #expect(stored.json.objectValue?["fences"]?.description.contains("Polygon") == true)
    }

    @Test func areasServeAsFencesWithTheirAttributes() async throws {
        let world = try await RulesWorld()
        defer { world.remove() }
        let shop = RulesWorld.shop(rules: [])
        try await Areas(log: world.log).define([shop])
        let geotrigger = Geotrigger(
            id: "shops", name: "Shops", areas: ["shop"], rule: .enter,
            messageExpression: #"`Welcome to ${$fencefeature.name}`"#)
        try await Geotriggers(log: world.log).define(geotrigger)
        let entered = try await world.enter(shop, at: Self.monday)
        #expect(entered.geotriggers.first?.message == "Welcome to Shop shop")
        #expect(entered.transitions == [LocationAnswer.Transition(area: "shop", trigger: "on_entry")])
        let audit = try Audit(log: world.log).entries(Audit.Filter(area: "shop"))
        #expect(audit.contains { $0.what == .geotriggerNotified && $0.fired == true })
    }

    @Test(arguments: [
        (#"{"messageExpression":"\"a\" +"}"#, "messageExpression: line 1, column"),
        (#"{"messageExpression":"\"a\"","rule":"sideways"}"#, "rule: expected enter, exit or enterOrExit"),
        (#"{"messageExpression":"\"a\"","bufferDistance":-1}"#, "bufferDistance"),
        (#"{"name":"x"}"#, "messageExpression: expected"),
        (
            #"{"messageExpression":"\"a\"","fences":{"type":"FeatureCollection","features":[{"type":"Feature","geometry":{"type":"Polygon","coordinates":[]},"properties":{}}]}}"#,
            "fences.features[0].geometry"
        ),
        (
            #"{"messageExpression":"\"a\"","fences":{"type":"FeatureCollection","features":[{"type":"Feature","geometry":{"type":"LineString","coordinates":[]},"properties":{}}]}}"#,
            "fences.features[0].geometry: expected a Point with properties.radius or a Polygon"
        ),
        (
            #"{"messageExpression":"\"a\"","fences":{"type":"FeatureCollection","features":[{"type":"Feature","geometry":{"type":"Polygon","coordinates":[[[0,0],[0,1],[1,1]],[[0,0],[0,1],[1,1]]]},"properties":{}}]}}"#,
            "fences.features[0].geometry.coordinates: holes are not supported"
        ),
    ])
    func aBadDefinitionIsRefusedNamingTheField(json: String, message: String) {
        let error = #expect(throws: MusterError.self) { try Geotrigger.read(Data(json.utf8), id: "g") }
        #expect(error?.message.hasPrefix(message) == true, "\(error?.message ?? "")")
    }

    @Test func aGeotriggerOnAnUnknownAreaWritesNothing() async throws {
        let world = try await RulesWorld()
        defer { world.remove() }
        let head = world.log.head
        let error = await #expect(throws: MusterError.self) {
            try await Geotriggers(log: world.log).define(
                Geotrigger(id: "g", areas: ["nowhere"], messageExpression: "\"a\""))
        }
        #expect(error?.message.hasPrefix("fences.areas: no area \"nowhere\"") == true)
        #expect(world.log.head == head)
    }
}
