import EventLog
import EventLogTesting
import Foundation
import Logging
import Metrics
import Muster
import PushDelivery
import PushProviders
import PushTesting
import Testing

/// A send to many devices while few attempts may run at once: the service looks at the outbox again and again while
/// attempts finish, and each device still gets the message once.
@Suite struct FanOutTests {
    @Test func eachDeviceGetsOnePushWhenAttemptsFinishWhileTheServiceLooksAtTheOutbox() async throws {
        let endpoint = try await WebPushEndpoint.start()
        defer { Task { await endpoint.stop() } }
        let directory = try TemporaryDirectory("fan-out")
        defer { directory.remove() }
        let log = try Fixtures.log(in: directory.url)
        defer { log.close() }
        let users = 1_500
        try await Fixtures.annWithABrowser(in: log, subscription: endpoint.subscribe().json)
        for n in 1..<users {
            try await Directory(log: log).addUser("user\(n)", password: nil)
            try await Directory(log: log).register(
                PushTargetRegistered(
                    user: "user\(n)", deviceId: "browser", deviceName: "Browser", platform: .web,
                    token: endpoint.subscribe().json))
        }
        var options = DeliveryService.Options()
        options.concurrency = 64
        let service = DeliveryService(
            log: log,
            factory: { try await PushSourceSetup.provider(for: $0, secret: $1, options: .init(timeout: .seconds(10))) },
            options: options, metrics: NOOPMetricsHandler.instance, logger: Logger(label: "test"))
        let running = Task { try await service.run() }
        defer { running.cancel() }

        let sent = try await Notifications(log: log).send(
            all: true, title: "Drill", body: "Muster at the gate", payload: DeliveryServiceTests.payload)
        #expect(sent.recipients.count == users)
        #expect(await endpoint.waitForPushes(users))
        let deliveries = Deliveries(log: log)
        while try deliveries.pendingCount() > 0 {
            let head = log.head
            await log.waitForCommit(beyond: head, timeout: .milliseconds(200))
        }
        running.cancel()
        _ = await running.result

        #expect(try deliveries.list().filter { $0.status == .delivered && $0.attempts == 1 }.count == users)
        let pushes = Dictionary(grouping: endpoint.received, by: \.subscription).mapValues(\.count)
        #expect(pushes.count == users)
        #expect(pushes.values.allSatisfy { $0 == 1 }, "\(pushes.values.filter { $0 > 1 }.count) devices got it twice")
        #expect(endpoint.requestCount == users)
    }
}
