import EventLog
import EventLogTesting
import Foundation
import Muster
import MusterWire
import PushProviders
import PushTesting
import Synchronization
import Testing

@testable import PushDelivery

/// One provider per source: deliveries that need a source's provider at the same moment wait for one, rather
/// than each making its own (each has a connection pool).
@Suite struct ProviderCacheTests {
    @Test func deliveriesArrivingTogetherShareOneNewProvider() async throws {
        let directory = try TemporaryDirectory("provider-cache")
        defer { directory.remove() }
        let log = try Fixtures.log(in: directory.url)
        defer { log.close() }
        try await Fixtures.annWithABrowser(in: log, subscription: WebPushTestSubscription.json())
        _ = try await Notifications(log: log).send(
            to: ["ann"], title: "Shift", body: "Can you come?", payload: DeliveryServiceTests.payload)
        let delivery = try #require(try Deliveries(log: log).list().first)

        let made = Mutex(0)
        let (opened, gate) = AsyncStream.makeStream(of: Void.self)
        let cache = ProviderCache(sources: PushSources(log: log)) { source, secret in
            made.withLock { $0 += 1 }
            // Held until the test lets it finish, so the other deliveries arrive while it is being made.
            for await _ in opened { break }
            return try await PushSourceSetup.provider(for: source, secret: secret, options: .init())
        }
        try await withThrowingTaskGroup(of: String.self) { group in
            for _ in 0..<20 { group.addTask { try await cache.provider(for: delivery).source.name } }
            // Every caller has reached the cache once the actor has run them all; then the provider may finish.
            while await cache.asked < 20 { await Task.yield() }
            gate.yield()
            for try await name in group { #expect(name == "browsers") }
        }
        await cache.shutdown()
        #expect(made.withLock { $0 } == 1)
    }
}
