import EventLog
import EventLogTesting
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
            for _ in 0..<3 { _ = try await client.send(.get, "/api/v1/server") }
            _ = try await client.send(.get, "/api/v1/no-such-route")
            _ = try await client.send(HTTPRequest.Method("BREW")!, "/api/v1/server")
            let metrics = try await client.send(.get, "/metrics")
            #expect(metrics.status == .ok)
            #expect(metrics.text.contains("muster_log_head"))
            // Each method, route and status counted apart, every request of them counted.
            func sample(_ name: String, _ labels: [String]) -> String? {
                metrics.text.split(separator: "\n").first { line in
                    line.hasPrefix(name + "{") && labels.allSatisfy { line.contains($0) }
                }.map { String($0.split(separator: " ").last!) }
            }
            let server = [#"method="GET""#, #"route="/api/v1/server""#]
            #expect(sample("muster_http_requests_total", server + [#"status="200""#]) == "3")
            #expect(sample("muster_http_request_duration_seconds_count", server) == "3")
            #expect(sample("muster_http_requests_total", [#"method="GET""#, #"status="404""#]) == "1")
            #expect(sample("muster_http_requests_total", [#"method="OTHER""#]) == "1")
            #expect(!metrics.text.contains("BREW"))
        }
    }

    @Test func theReleaseAndTheStoreFormatAreToldAsMusterReleaseSays() async throws {
        let api = try await APITester.make()
        defer { api.remove() }
        try await api.run { client in
            let server = try await client.send(.get, "/api/v1/server")
            #expect(server.object["version"] as? String == MusterRelease.version)
            #expect(server.object["storeFormat"] as? Int == Int(api.log.configuration.formatVersion))
            let metrics = try await client.send(.get, "/metrics").text
            let info = metrics.split(separator: "\n").first { $0.hasPrefix("muster_build_info{") }
            #expect(info?.contains(#"version="\#(MusterRelease.version)""#) == true, "\(metrics)")
            #expect(info?.contains(#"store_format="\#(api.log.configuration.formatVersion)""#) == true)
            #expect(info.flatMap { Double($0.split(separator: " ").last ?? "") } == 1, "\(info ?? "")")
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

    @Test func anErrorBodyNamesTheRequestIdItsHeaderAndLogLineName() async throws {
        let api = try await APITester.make()
        defer { api.remove() }
        try await api.run { client in
            let refused = try await client.send(.get, "/api/v1/inbox")
            #expect(refused.status == .unauthorized)
            let header = try #require(refused.headers[.init("X-Request-Id")!])
            #expect(!header.isEmpty)
            let error = try #require(refused.object["error"] as? [String: Any])
            #expect(error["requestId"] as? String == header)
            let other = try await client.send(.get, "/api/v1/nothing-here")
            let otherId = (other.object["error"] as? [String: Any])?["requestId"] as? String
            #expect(otherId != nil && otherId != header, "each request has an id of its own")
            // A success has no body to carry it, but keeps the header.
            let served = try await client.send(.get, "/api/v1/server")
            #expect(served.status == .ok)
            #expect(served.headers[.init("X-Request-Id")!] != nil)
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
        // One request per 1,000 s: however slow the machine, no token comes back during the test.
        let api = try await APITester.make {
            $0.rateLimit = 0.001
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

@Suite struct AdministrationRoutesTests {
    @Test func anAdministratorDefinesGroupsSetsSettingsAndReadsTheAudit() async throws {
        let api = try await APITester.make()
        defer { api.remove() }
        try await api.run { client in
            let ada = try await client.login("ada")
            let joe = try await client.login("joe")
            #expect(try await client.send(.get, "/api/v1/groups", token: joe).status == .forbidden)
            let defined = try await client.send(
                .put, "/api/v1/groups/night", token: ada, json: #"{"members":["ann","joe","ann"]}"#)
            #expect(defined.status == .ok)
            #expect(defined.object["members"] as? [String] == ["ann", "joe"])
            let unknown = try await client.send(
                .put, "/api/v1/groups/night", token: ada, json: #"{"members":["nobody"]}"#)
            #expect(unknown.status == .badRequest)
            #expect(unknown.errorMessage.contains("nobody"))
            let groups = try await client.send(.get, "/api/v1/groups", token: ada)
            #expect(Set(groups.array.compactMap { $0["name"] as? String }) == ["night", "ops"])

            let limit = try await client.send(
                .put, "/api/v1/settings/pushSizeLimit", token: ada, json: #"{"value":"300"}"#)
            #expect(limit.status == .ok)
            #expect(limit.object["value"] as? String == "300")
            #expect(limit.object["isDefault"] as? Bool == false)
            let bad = try await client.send(
                .put, "/api/v1/settings/pushSizeLimit", token: ada, json: #"{"value":"ten"}"#)
            #expect(bad.status == .badRequest)
            #expect(
                try await client.send(.put, "/api/v1/settings/colour", token: ada, json: #"{"value":"1"}"#).status
                    == .notFound)
            // The new limit bounds what a push carries; the send itself is accepted.
            let label = String(repeating: "x", count: 400)
            let big = try await client.send(
                .post, "/api/v1/notifications", token: ada,
                json:
                    #"{"to":["joe"],"title":"T","body":"B","payload":{"responseTopic":"/a","fields":[{"type":"text","label":"\#(label)"}]}}"#
            )
            #expect(big.status == .created, "\(big.text)")

            // Back to the default: listed as default again.
            let reset = try await client.send(.delete, "/api/v1/settings/pushSizeLimit", token: ada)
            #expect(reset.status == .ok, "\(reset.text)")
            #expect(reset.object["value"] as? String == "4096")
            #expect(reset.object["isDefault"] as? Bool == true)
            let listed = try await client.send(.get, "/api/v1/settings", token: ada)
            #expect(listed.array.first { $0["key"] as? String == "pushSizeLimit" }?["isDefault"] as? Bool == true)
            #expect(try await client.send(.delete, "/api/v1/settings/colour", token: ada).status == .notFound)

            let audit = try await client.send(.get, "/api/v1/audit?user=joe", token: ada)
            #expect(audit.status == .ok)
            #expect(audit.array.contains { ($0["what"] as? String) == "loggedIn" })
            let badSince = try await client.send(.get, "/api/v1/audit?since=yesterday", token: ada)
            #expect(badSince.status == .badRequest)
            #expect(badSince.errorFields == ["since"])
        }
    }
}

@Suite struct RequestLimitTests {
    @Test func aJSONBodyAboveOneMebibyteIs413AndStoresNothing() async throws {
        let api = try await APITester.make()
        defer { api.remove() }
        try await api.run { client in
            let ada = try await client.login("ada")
            let head = api.log.head
            let huge = #"{"pad":""# + String(repeating: "x", count: 1 << 20) + #""}"#
            let answer = try await client.send(.post, "/api/v1/topics/a/b", token: ada, json: huge)
            #expect(answer.status == .contentTooLarge)
            #expect(answer.errorCode == "too_large")
            #expect(api.log.head == head)
        }
    }

    @Test func aDocumentAboveTheServersLimitIs413AndAKindIsGuessedFromItsType() async throws {
        let api = try await APITester.make { $0.documentLimit = 100_000 }
        defer { api.remove() }
        try await api.run { client in
            let joe = try await client.login("joe")
            let head = api.log.head
            let big = try await client.send(
                .post, "/api/v1/documents?kind=video", token: joe, body: MediaSamples.file("mp4", size: 150_000))
            #expect(big.status == .contentTooLarge)
            #expect(api.log.head == head)
            let guessed = try await client.send(
                .post, "/api/v1/documents", token: joe, body: MediaSamples.file("m4a"),
                headers: [.contentType: "audio/mp4"])
            #expect(guessed.status == .created, "\(guessed.text)")
            #expect((guessed.object["name"] as? String)?.hasPrefix("rcs/audio/") == true)
            #expect((guessed.object["name"] as? String)?.hasSuffix(".m4a") == true)
            let unknown = try await client.send(
                .post, "/api/v1/documents", token: joe, body: [1, 2, 3],
                headers: [.contentType: "application/pdf"])
            #expect(unknown.status == .badRequest)
            #expect(unknown.errorMessage.contains("audio, image or video"))
        }
    }
}
