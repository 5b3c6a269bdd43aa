import EventLogTesting
import Foundation
import Testing

/// `serve --max-body` and `--max-document-size` over a real socket: a JSON body or a document above its limit
/// is a 413 naming the limit, whether its length is declared or it streams in chunks, and nothing is stored
/// (issue 16).
@Suite(.serialized) struct BodyLimitsEndToEndTests {
    @Test func bodiesAboveTheirRoutesLimitAre413AndStoreNothing() async throws {
        let server = try await ServerProcess(extraArguments: ["--max-body", "2048", "--max-document-size", "30000"])
        let ada = try await server.login("ada", password: "secret-ada")
        let port = server.base.port!

        // JSON: declared above the limit.
        let pad = String(repeating: "x", count: 3000)
        let json = try await server.send("POST", "api/v1/topics/a/b", token: ada, json: #"{"pad":"\#(pad)"}"#)
        #expect(json.status == 413, "\(json.text)")
        #expect(json.errorCode == "too_large" && json.text.contains("2048 bytes"), "\(json.text)")
        // JSON in chunks, no length declared.
        let chunked = try RawConnection(port: port)
        try chunked.send(
            "POST /api/v1/topics/a/b HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer \(ada)\r\n"
                + "Content-Type: application/json\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n")
        for _ in 0..<3 { try chunked.send("3e8\r\n" + String(repeating: " ", count: 1000) + "\r\n") }
        try chunked.send("0\r\n\r\n")
        let streamed = try await chunked.read(until: "}}")
        #expect(streamed.hasPrefix("HTTP/1.1 413"), "\(streamed.prefix(300))")
        #expect(streamed.contains("2048 bytes"), "\(streamed.prefix(600))")

        // A document declared above the limit: answered before its body is sent.
        let declared = try RawConnection(port: port)
        try declared.send(
            "POST /api/v1/documents?kind=image HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer \(ada)\r\n"
                + "Content-Type: image/jpeg\r\nContent-Length: 40000\r\n\r\n")
        let early = try await declared.read(until: "}}")
        #expect(early.hasPrefix("HTTP/1.1 413"), "\(early.prefix(300))")
        #expect(early.contains("30000 bytes") && early.contains("--max-document-size"), "\(early)")
        // A document streamed in chunks past the limit.
        let photo = MediaSamples.file("jpeg", size: 40_000)
        let upload = try RawConnection(port: port)
        try upload.send(
            "POST /api/v1/documents?kind=image HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer \(ada)\r\n"
                + "Content-Type: image/jpeg\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n")
        // Seven chunks of 5000 bytes: the seventh passes the limit; the rest is never sent, nor needed.
        for start in stride(from: 0, to: 35_000, by: 5000) {
            let piece = photo[start..<start + 5000]
            try upload.send(bytes: Array("1388\r\n".utf8) + piece + Array("\r\n".utf8))
        }
        let refused = try await upload.read(until: "}}")
        #expect(refused.hasPrefix("HTTP/1.1 413"), "\(refused.prefix(300))")

        // Nothing stored; one under the limit is.
        let listed = try await server.send("GET", "api/v1/documents", token: ada)
        #expect(listed.status == 200 && listed.array.isEmpty, "\(listed.text)")
        let small = try await server.upload(
            "kind=image", MediaSamples.file("jpeg", size: 20_000), type: "image/jpeg", token: ada)
        #expect(small.status == 201, "\(small.text)")
        let topic = try await server.send("POST", "api/v1/topics/a/b", token: ada, json: #"{"pad":"small"}"#)
        #expect(topic.status != 413, "\(topic.text)")
    }

    @Test func limitsBelowAKibibyteAreRefusedByName() async throws {
        let data = try TemporaryDirectory("limits")
        defer { data.remove() }
        for option in ["--max-body", "--max-document-size"] {
            let outcome = try await MusterProcess.run(
                ["serve", "--port", "0", "--data", data.url.path, option, "10"], timeout: 120)
            #expect(outcome.status != 0)
            #expect(outcome.stderr.contains("\(option) must be at least 1024 bytes, got 10"), "\(outcome.stderr)")
        }
    }
}
