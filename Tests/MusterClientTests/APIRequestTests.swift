import Foundation
import MusterWire
import Testing

@testable import MusterClient

@Suite struct APIRequestTests {
    private let server = URL(string: "https://muster.example.com")!

    @Test(
        arguments: [
            (["server"], "https://muster.example.com/api/v1/server"),
            (["auth", "token"], "https://muster.example.com/api/v1/auth/token"),
            (["devices", "Anna's phone/1"], "https://muster.example.com/api/v1/devices/Anna's%20phone%2F1"),
            (["topics", "a", "+", "c"], "https://muster.example.com/api/v1/topics/a/+/c"),
            (["topics", "a", "#"], "https://muster.example.com/api/v1/topics/a/%23"),
            (["requests", "what?"], "https://muster.example.com/api/v1/requests/what%3F"),
            (["payloads", "100%"], "https://muster.example.com/api/v1/payloads/100%25"),
        ] as [([String], String)])
    func eachSegmentIsEncodedOnItsOwn(_ path: [String], _ expected: String) {
        #expect(APIRequest("GET", path).url(serverURL: server)?.absoluteString == expected)
    }

    @Test(
        arguments: [
            "https://example.com/muster", "https://example.com/muster/", "https://example.com/muster//",
        ])
    func aServerBehindAPathPrefix(_ base: String) {
        let url = APIRequest("GET", ["inbox"]).url(serverURL: URL(string: base)!)
        #expect(url?.absoluteString == "https://example.com/muster/api/v1/inbox")
    }

    @Test func theDocumentKindIsAQueryParameter() {
        var request = APIRequest("POST", ["documents"])
        request.query = [URLQueryItem(name: "kind", value: "image")]
        #expect(
            request.url(serverURL: server)?.absoluteString == "https://muster.example.com/api/v1/documents?kind=image")
    }

    @Test func topicFiltersBecomeSegments() {
        #expect(MusterClient.topicSegments("/orders/+/accepted") == ["orders", "+", "accepted"])
        #expect(MusterClient.topicSegments("/orders/#") == ["orders", "#"])
        #expect(MusterClient.topicSegments("a/b/") == ["a", "b"])
    }

    @Test func messageIdsAreLowercaseOnTheWire() {
        let id = UUID(uuidString: "3F2B8C1E-9A4D-4E6F-8B7A-1C2D3E4F5A6B")!
        #expect(MusterClient.wire(id) == "3f2b8c1e-9a4d-4e6f-8b7a-1c2d3e4f5a6b")
    }

    @Test func headersOfAJSONRequest() throws {
        let request = try APIRequest("POST", ["auth", "refresh"], json: ["refreshToken": "r"])
        let urlRequest = try request.urlRequest(serverURL: server, bearer: "token-1")
        #expect(urlRequest.httpMethod == "POST")
        #expect(urlRequest.value(forHTTPHeaderField: "Content-Type") == "application/json")
        #expect(urlRequest.value(forHTTPHeaderField: "Accept") == "application/json")
        #expect(urlRequest.value(forHTTPHeaderField: "Authorization") == "Bearer token-1")
        #expect(urlRequest.httpBody == Data(#"{"refreshToken":"r"}"#.utf8))
        #expect(request.summary == "POST /api/v1/auth/refresh")
    }

    @Test func noBearerWithoutToken() throws {
        let urlRequest = try APIRequest("GET", ["server"], authorized: false).urlRequest(serverURL: server, bearer: nil)
        #expect(urlRequest.value(forHTTPHeaderField: "Authorization") == nil)
    }

    @Test func recipients() {
        let recipients = Recipients.groups("drivers")
        #expect(recipients.users.isEmpty && !recipients.all)
        #expect(Recipients.all.all)
        #expect(Recipients.users("a", "b").users == ["a", "b"])
    }
}

@Suite struct ReconnectionBackoffTests {
    @Test(
        arguments: [
            (1, Duration.seconds(1)), (2, .seconds(2)), (3, .seconds(4)), (5, .seconds(16)), (6, .seconds(30)),
            (50, .seconds(30)),
        ] as [(Int, Duration)])
    func doublesUpToTheMaximum(_ failures: Int, _ expected: Duration) {
        #expect(MusterClient.backoff(.seconds(1), failures: failures, retryAfter: nil) == expected)
    }

    @Test func startsFromTheServersRetry() {
        #expect(MusterClient.backoff(.milliseconds(250), failures: 1, retryAfter: nil) == .milliseconds(250))
        #expect(MusterClient.backoff(.milliseconds(250), failures: 3, retryAfter: nil) == .seconds(1))
    }

    @Test func neverShorterThanRetryAfter() {
        #expect(MusterClient.backoff(.seconds(1), failures: 1, retryAfter: .seconds(120)) == .seconds(120))
    }
}
