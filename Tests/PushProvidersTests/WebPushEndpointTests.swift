import Foundation
import PushProviders
import PushTesting
import Testing

/// The local push service's own promises: waiting without sleeping, faults in order, a clean stop.
@Suite(.timeLimit(.minutes(5))) struct WebPushEndpointTests {
    @Test func aWaiterIsWokenByThePushThatReachesItsCount() async throws {
        try await WebPushProviderTests.withEndpoint { provider, endpoint in
            let subscription = endpoint.subscribe()
            async let arrived = endpoint.waitForPushes(3)
            for _ in 0..<3 {
                _ = try await provider.send(WebPushProviderTests.push(to: subscription))
            }
            #expect(await arrived)
            #expect(endpoint.received.count == 3)
        }
    }

    @Test func stoppingWakesWaitersShortOfTheirCount() async throws {
        let endpoint = try await WebPushEndpoint.start()
        async let arrived = endpoint.waitForPushes(1)
        await endpoint.stop()
        #expect(await arrived == false)
        #expect(await endpoint.waitForPushes(1) == false)
    }

    @Test func aSubscriptionsFaultsComeBeforeTheGlobalOnes() async throws {
        try await WebPushProviderTests.withEndpoint { provider, endpoint in
            let subscription = endpoint.subscribe()
            endpoint.inject(.status(500))
            endpoint.inject(.status(429, retryAfter: "3"), times: 2, subscription: subscription.id)
            var statuses: [Int?] = []
            for _ in 0..<4 {
                switch try await provider.send(WebPushProviderTests.push(to: subscription)) {
                case .retry(let status, _, _): statuses.append(status)
                case .delivered: statuses.append(201)
                default: statuses.append(nil)
                }
            }
            #expect(statuses == [429, 429, 500, 201])
            #expect(endpoint.requestCount == 4 && endpoint.receivedCount == 1)
        }
    }

    @Test func anUnknownSubscriptionIsNotFound() async throws {
        try await WebPushProviderTests.withEndpoint { provider, endpoint in
            var subscription = endpoint.subscribe()
            subscription.json = subscription.json.replacingOccurrences(of: subscription.id, with: "unknown")
            let outcome = try await provider.send(WebPushProviderTests.push(to: subscription))
            #expect(outcome == .unregistered(status: 404, reason: "no such subscription"))
        }
    }
}
