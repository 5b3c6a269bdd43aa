import EventLogTesting
import Foundation
import Testing

@testable import MusterHTTP

/// `ServerConfiguration.bodyLimit` and `documentLimit` through the router: the 413 names its limit and the
/// body field, and a body at the limit passes.
@Suite struct BodyLimitRoutesTests {
    @Test func theJSONLimitIsTheConfiguredOneAndNamedInThe413() async throws {
        let api = try await APITester.make { $0.bodyLimit = 2048 }
        defer { api.remove() }
        try await api.run { client in
            let ada = try await client.login("ada")
            let head = api.log.head
            let over = #"{"pad":""# + String(repeating: "x", count: 2048) + #""}"#
            let refused = try await client.send(.post, "/api/v1/topics/a/b", token: ada, json: over)
            #expect(refused.status == .contentTooLarge)
            #expect(refused.errorCode == "too_large" && refused.errorFields == ["body"])
            #expect(refused.text.contains("2048 bytes") && refused.text.contains("--max-body"), "\(refused.text)")
            #expect(api.log.head == head)
            let under = #"{"pad":""# + String(repeating: "x", count: 2000) + #""}"#
            let taken = try await client.send(.post, "/api/v1/topics/a/b", token: ada, json: under)
            #expect(taken.status != .contentTooLarge, "\(taken.text)")
        }
    }

    @Test func aDocumentDeclaredAboveTheLimitIsRefusedNamingIt() async throws {
        let api = try await APITester.make { $0.documentLimit = 10_000 }
        defer { api.remove() }
        try await api.run { client in
            let joe = try await client.login("joe")
            let head = api.log.head
            let big = try await client.send(
                .post, "/api/v1/documents?kind=image", token: joe, body: MediaSamples.file("jpeg", size: 20_000),
                headers: [.contentType: "image/jpeg"])
            #expect(big.status == .contentTooLarge)
            #expect(big.text.contains("10000 bytes") && big.text.contains("--max-document-size"), "\(big.text)")
            #expect(big.errorFields == ["body"])
            #expect(api.log.head == head)
        }
    }
}
