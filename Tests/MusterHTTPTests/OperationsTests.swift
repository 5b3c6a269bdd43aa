import Foundation
import Hummingbird
import Muster
import MusterHTTP
import Testing

@Suite struct OperationsTests {
    @Test func healthAndMetricsNeedNoTokenAndMetricsCountRequests() async throws {
        let api = try await APITester.make()
        defer { api.remove() }
        try await api.run { client in
            let health = try await client.send(.get, "/healthz")
            #expect(health.status == .ok)
            #expect(health.object["status"] as? String == "ok")
            #expect(health.object["head"] as? Int == Int(api.log.head))
            _ = try await client.send(.get, "/api/v1/server")
            let metrics = try await client.send(.get, "/metrics")
            #expect(metrics.status == .ok)
            #expect(metrics.text.contains("muster_http_requests_total"))
            #expect(metrics.text.contains(#"route="/api/v1/server""#))
            #expect(metrics.text.contains("muster_log_head"))
        }
    }

    @Test func anUnknownRouteIsAJSON404AndEveryAnswerHasARequestId() async throws {
        let api = try await APITester.make()
        defer { api.remove() }
        try await api.run { client in
            let answer = try await client.send(.get, "/api/v1/nothing-here")
            #expect(answer.status == .notFound)
            #expect(answer.errorCode == "not_found")
            #expect(answer.headers[.init("X-Request-Id")!] != nil)
        }
    }

    @Test func publishingOnATopicIsForAdministratorsAndRecorded() async throws {
        let api = try await APITester.make()
        defer { api.remove() }
        try await api.run { client in
            let ada = try await client.login("ada")
            let joe = try await client.login("joe")
            #expect(
                try await client.send(.post, "/api/v1/topics/plant/alarms", token: joe, json: "{}").status == .forbidden
            )
            let published = try await client.send(
                .post, "/api/v1/topics/plant/alarms", token: ada, json: #"{"pump":3}"#)
            #expect(published.status == .accepted)
            #expect(published.object["position"] as? Int == Int(api.log.head))
            let wildcard = try await client.send(.post, "/api/v1/topics/plant/+", token: ada, json: "{}")
            #expect(wildcard.status == .badRequest)
        }
    }

    @Test func aCallerAboveTheRateLimitGets429WithRetryAfter() async throws {
        let api = try await APITester.make {
            $0.rateLimit = 1
            $0.burst = 3
        }
        defer { api.remove() }
        try await api.run { client in
            var statuses: [HTTPResponse.Status] = []
            var retryAfter: String?
            for _ in 0..<5 {
                let answer = try await client.send(.get, "/api/v1/server")
                statuses.append(answer.status)
                if answer.status == .tooManyRequests { retryAfter = answer.headers[.retryAfter] }
            }
            #expect(statuses.prefix(3).allSatisfy { $0 == .ok })
            #expect(statuses.last == .tooManyRequests)
            #expect(retryAfter != nil)
        }
    }
}
