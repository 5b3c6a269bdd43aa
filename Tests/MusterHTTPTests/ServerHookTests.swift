import EventLog
import EventLogTesting
import Foundation
import Hummingbird
import Logging
import MusterWire
import ServiceLifecycle
import Synchronization
import Testing

@testable import Muster

/// A notification server on loopback that answers decision records (seed 004, "Server Action Hook").
struct DecisionServer {
    let port: Int
    let group: ServiceGroup
    let done: Task<Void, any Error>
    /// Paths asked, in order.
    let asked: Asked

    final class Asked: Sendable {
        private let paths = Mutex<[String]>([])
        func add(_ path: String) { paths.withLock { $0.append(path) } }
        var all: [String] { paths.withLock { $0 } }
    }

    static func start() async throws -> DecisionServer {
        let asked = Asked()
        let router = Router()
        @Sendable func record(_ body: String) -> Response {
            Response(
                status: .ok, headers: [.contentType: "application/json"],
                body: ResponseBody(byteBuffer: ByteBuffer(string: body)))
        }
        router.get("enable/**") { request, _ in
            asked.add(request.uri.path)
            return record(#"{"version":"2","decision":"enable"}"#)
        }
        router.get("disable/**") { _, _ in record(#"{"version":"2","decision":"disable"}"#) }
        router.get("notify/**") { _, _ in
            record(
                #"{"version":"2","decision":"notify","notify_user":"{\"alertBody\":\"Your coupon: 42\",\"payload\":{\"coupon\":42}}","open_url":"https://shop.example/c/{id}"}"#
            )
        }
        router.get("error/**") { _, _ in Response(status: .internalServerError) }
        router.get("malformed/**") { _, _ in record(#"{"version":"1","decision":"enable"}"#) }
        router.get("slow/**") { _, _ in
            try await Task.sleep(for: .seconds(3))
            return record(#"{"version":"2","decision":"enable"}"#)
        }
        let (stream, continuation) = AsyncStream.makeStream(of: Int.self)
        let app = Application(
            router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)),
            onServerRunning: { channel in continuation.yield(channel.localAddress?.port ?? 0) })
        let group = ServiceGroup(configuration: .init(services: [app], logger: Logger(label: "decision-server")))
        let done = Task { try await group.run() }
        var ports = stream.makeAsyncIterator()
        guard let port = await ports.next() else { throw StoreError(.io, "the decision server did not start") }
        return DecisionServer(port: port, group: group, done: done, asked: asked)
    }

    func url(_ path: String) -> String { "http://127.0.0.1:\(port)/\(path)" }

    func stop() async {
        await group.triggerGracefulShutdown()
        _ = try? await done.value
    }
}

@Suite struct ServerHookTests {
    static let monday = UbuduFormat.parseDate("2026-11-23T10:00:00+01:00")!

    /// A log with user ada, settings as given, and one shop whose rule calls `hook`, giving each attempt
    /// `timeout` seconds: long by default, so a loaded machine does not turn one answer into a retry.
    static func world(hook template: String, timeout: TimeInterval = 30) async throws -> (TestLog, EventLog, RuleEngine)
    {
        let t = try TestLog("hooks")
        let log = try t.open { $0.projections += MusterDomain.projections }
        _ = try await Directory(log: log).addUser("ada", password: nil, timeZone: "Europe/Paris")
        let rule = AreaRule(
            id: "r", trigger: "on_entry",
            action: AreaRule.Action(
                notifyServer: template, notifyUser: "Welcome!", openURL: "https://shop.example/{id}"))
        try await Areas(log: log).define([
            Area(id: "shop", region: .geofence(latitude: 48.87, longitude: 2.33, radius: 50), rules: [rule])
        ])
        return (t, log, RuleEngine(log: log, hook: ServerHook(timeout: timeout, attempts: 2)))
    }

    static func enter(_ engine: RuleEngine) async throws -> LocationAnswer {
        try await engine.report(
            RuleEngine.LocationReport(user: "ada", deviceId: "phone 1", latitude: 48.87, longitude: 2.33, at: monday))
    }

    @Test(arguments: [
        ("enable", true, "notified ada: \"Welcome!\""),
        ("disable", false, "the server hook decided disable"),
        ("notify", true, "notified ada: \"Your coupon: 42\""),
        ("error", false, "aborted: the server hook answered HTTP 500"),
        ("malformed", false, "aborted: the server hook answered version \"1\""),
        ("slow", false, "aborted: the server hook could not be reached (attempt 2 of 2)"),
    ])
    func theDecisionRecordDecides(path: String, fired: Bool, reason: String) async throws {
        let server = try await DecisionServer.start()
        // Only the slow hook (3 s) is to time out: 1 s per attempt for it.
        let (t, log, engine) = try await Self.world(
            hook: server.url("\(path)/{namespace}/{id}/{udid}/{lat}/{lng}"), timeout: path == "slow" ? 1 : 30)
        defer { t.directory.remove() }
        let outcome = try #require(try await Self.enter(engine).outcome("r"))
        await server.stop()
        #expect(outcome.fired == fired)
        #expect(outcome.reason.hasPrefix(reason), "\(outcome.reason)")
        let inbox = try Notifications(log: log).inbox(user: "ada")
        #expect(inbox.count == (fired ? 1 : 0))
        if path == "notify" {
            let message = try #require(try Notifications(log: log).message(id: inbox[0].messageId, user: "ada"))
            let text = String(decoding: message.payload, as: UTF8.self)
            #expect(text.contains("https://shop.example/c/shop") && text.contains("\"coupon\":42"))
        }
        if path == "enable" {
            #expect(server.asked.all == ["/enable/default/shop/phone%201/48.87/2.33"])
        }
        // The record that waited and the one that answered are both in the log.
        let records = try log.events(EventQuery(type: RuleEvaluated.type)).compactMap { try RuleEvaluated.decode($0) }
        #expect(records.map(\.awaitingServer) == [true, false])
        #expect(try await engine.resumeServerHooks().outcomes.isEmpty)
    }

    @Test func aHookNotAnsweredBeforeARestartIsCalledAfterIt() async throws {
        let server = try await DecisionServer.start()
        let t = try TestLog("hooks")
        defer { t.directory.remove() }
        var log = try t.open { $0.projections += MusterDomain.projections }
        _ = try await Directory(log: log).addUser("ada", password: nil)
        let rule = AreaRule(
            id: "r", trigger: "on_entry",
            action: AreaRule.Action(notifyServer: server.url("enable/{id}"), notifyUser: "Welcome!"))
        try await Areas(log: log).define([
            Area(id: "shop", region: .geofence(latitude: 48.87, longitude: 2.33, radius: 50), rules: [rule])
        ])
        // Record a waiting hook the way a crash between the two transactions leaves it.
        _ = try await log.perform { scope in
            try scope.append(
                AppendRequest(
                    stream: "device/phone",
                    events: [
                        RuleEvaluated(
                            user: "ada", deviceId: "phone", area: "shop", rule: "r", trigger: "on_entry",
                            transition: 0, at: 0, reason: "waiting for the server hook",
                            serverURL: server.url("enable/shop"), awaitingServer: true
                        ).newEvent(actor: "rules")
                    ]))
        }
        log.close()
        log = try t.open { $0.projections += MusterDomain.projections }
        // One attempt, with time to spare: under a full test run's load an answer slower than the default 5 s made
        // the engine ask again, and the server saw the hook twice.
        let resumed = try await RuleEngine(log: log, hook: ServerHook(timeout: 60, attempts: 1)).resumeServerHooks()
        await server.stop()
        #expect(resumed.outcome("r")?.fired == true)
        #expect(server.asked.all == ["/enable/shop"])
        #expect(try Notifications(log: log).inbox(user: "ada").map(\.body) == ["Welcome!"])
    }

    @Test func automaticServerNotificationsOffHandsTheHookToTheApplication() async throws {
        let (t, log, engine) = try await Self.world(hook: "http://127.0.0.1:9/never")
        defer { t.directory.remove() }
        try await Settings(log: log).set(.automaticServerNotifications, to: "false")
        let outcome = try #require(try await Self.enter(engine).outcome("r"))
        #expect(!outcome.fired)
        #expect(outcome.reason.contains("automaticServerNotifications is false"))
    }
}
