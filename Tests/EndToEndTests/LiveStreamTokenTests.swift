import EventLogTesting
import Foundation
import Testing

/// A live stream is read with the token it was opened with, and only while that token holds: after a logout the
/// next event is not sent and the stream ends; an expired token ends it at the next keep-alive. A stolen token
/// does not read an inbox for ever.
@Suite(.serialized) struct LiveStreamTokenTests {
    static let ended = "the token expired or was revoked"

    @Test func aLiveStreamCarriesNothingAfterItsTokenIsLoggedOut() async throws {
        let server = try await ServerProcess(extraArguments: ["--stream-keep-alive", "600"])
        let listening = try await server.login("ada", password: "secret-ada")
        let sending = try await server.login("ada", password: "secret-ada")
        let connection = try RawConnection(port: server.base.port!)
        try connection.send(
            "GET /api/v1/inbox HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer \(listening)\r\n"
                + "Accept: text/event-stream\r\n\r\n")
        #expect(try await connection.read(until: ": stream open").hasPrefix("HTTP/1.1 200"))
        try await Self.send("before logout", to: server, token: sending)
        #expect(try await connection.read(until: "before logout").contains("event: message"))

        #expect(try await server.send("POST", "api/v1/auth/logout", token: listening).status == 204)
        try await Self.send("after logout", to: server, token: sending)
        let rest = try await connection.read(until: Self.ended)
        #expect(rest.contains(Self.ended), "\(rest)")
        #expect(!rest.contains("after logout"), "\(rest)")
        try await eventually("the stream to end") { try await server.openLiveStreams() == 0 }
        // The message is in the inbox, for a token that holds.
        let inbox = try await server.send("GET", "api/v1/inbox", token: sending)
        #expect(inbox.array.compactMap { $0["title"] as? String }.sorted() == ["after logout", "before logout"])
    }

    @Test func aLiveStreamEndsWhenItsTokenExpires() async throws {
        let server = try await ServerProcess(extraArguments: [
            "--stream-keep-alive", "1", "--access-token-lifetime", "10",
        ])
        let token = try await server.login("ada", password: "secret-ada")
        let connection = try RawConnection(port: server.base.port!)
        try connection.send(
            "GET /api/v1/inbox HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer \(token)\r\n"
                + "Accept: text/event-stream\r\n\r\n")
        #expect(try await connection.read(until: ": stream open").hasPrefix("HTTP/1.1 200"))
        let rest = try await connection.read(until: Self.ended)
        #expect(rest.contains(Self.ended), "\(rest)")
        try await eventually("the stream to end") { try await server.openLiveStreams() == 0 }
        let verified = try await server.send("GET", "api/v1/auth/verify", token: token)
        #expect(verified.errorCode == "token_expired", "\(verified.text)")
    }

    private static func send(_ title: String, to server: ServerProcess, token: String) async throws {
        let answer = try await server.send(
            "POST", "api/v1/notifications", token: token,
            json: #"{"to":["ada"],"title":"\#(title)","body":"b","payload":{"responseTopic":"/g","fields":[]}}"#)
        try #require(answer.status == 201, "\(answer.text)")
    }

}
