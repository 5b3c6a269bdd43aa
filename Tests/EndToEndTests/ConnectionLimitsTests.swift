import EventLogTesting
import Foundation
import Testing

/// A connection cannot hold the server: slow headers, a stalled body and a silent socket are closed
/// with a reason, a request the decoder cannot read gets the API's JSON error, connections beyond the
/// cap are refused, an outside `Last-Event-ID` is a 400, not the end of the server (issue 10), and a live stream
/// whose client leaves ends then, not keep-alives later.
@Suite(.serialized) struct ConnectionLimitsTests {
    @Test func aRequestWhoseHeadersNeverEndIsAnswered408AndClosed() async throws {
        let server = try await ServerProcess(extraArguments: ["--header-timeout", "1"])
        let connection = try RawConnection(port: server.base.port!)
        try connection.send("GET /api/v1/inbox HTTP/1.1\r\nHost: localhost\r\nAccept: application/json\r\n")
        let answer = try await connection.readUntilClosed()
        #expect(answer.hasPrefix("HTTP/1.1 408"), "\(answer)")
        #expect(answer.contains(#""code":"request_timeout""#), "\(answer)")
        #expect(try await server.send("GET", "healthz").status == 200)
    }

    @Test func aBodyThatStopsHalfWayIsAnswered408AndClosed() async throws {
        let server = try await ServerProcess(extraArguments: ["--body-timeout", "1"])
        let connection = try RawConnection(port: server.base.port!)
        try connection.send(
            "POST /api/v1/auth/token HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n"
                + "Content-Length: 100\r\n\r\n{\"username\":")
        let answer = try await connection.readUntilClosed()
        #expect(answer.hasPrefix("HTTP/1.1 408"), "\(answer)")
        #expect(answer.contains("body"), "\(answer)")
    }

    @Test func aSilentConnectionIsClosedAfterTheIdleTimeout() async throws {
        let server = try await ServerProcess(extraArguments: ["--idle-timeout", "1"])
        let connection = try RawConnection(port: server.base.port!)
        #expect(try await connection.readUntilClosed() == "")
    }

    @Test func connectionsBeyondTheCapAreRefused503UntilOneCloses() async throws {
        let server = try await ServerProcess(extraArguments: ["--max-connections", "3"])
        let port = server.base.port!
        // Each held connection has been answered once and stays open, so the server counts it.
        var held = try (0..<3).map { _ in try RawConnection(port: port) }
        for connection in held {
            try connection.send("GET /healthz HTTP/1.1\r\nHost: localhost\r\n\r\n")
            #expect(try await connection.read(until: "\r\n\r\n").hasPrefix("HTTP/1.1 200"))
        }
        let refused = try RawConnection(port: port)
        let answer = try await refused.readUntilClosed()
        #expect(answer.hasPrefix("HTTP/1.1 503"), "\(answer)")
        #expect(answer.contains(#""code":"too_many_connections""#), "\(answer)")
        #expect(answer.contains("Retry-After: 1"), "\(answer)")

        held.removeLast()  // closes it; the server counts it out when it notices
        let status = try await eventually("a connection to be served once one closed") { () -> Int? in
            let connection = try RawConnection(port: port)
            try connection.send("GET /healthz HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n")
            return try await connection.readUntilClosed().hasPrefix("HTTP/1.1 200") ? 200 : nil
        }
        #expect(status == 200)
    }

    @Test func aUrlOrHeaderBeyondTheDecodersLimitGetsTheJsonError() async throws {
        let server = try await ServerProcess()
        for request in [
            "GET /api/v1/inbox?\(String(repeating: "a", count: 100_000)) HTTP/1.1\r\nHost: localhost\r\n\r\n",
            "GET /healthz HTTP/1.1\r\nHost: localhost\r\nX-Big: \(String(repeating: "b", count: 100_000))\r\n\r\n",
        ] {
            let connection = try RawConnection(port: server.base.port!)
            try connection.send(request)
            let answer = try await connection.readUntilClosed()
            #expect(answer.hasPrefix("HTTP/1.1 400"), "\(answer.prefix(200))")
            #expect(answer.contains(#"{"error":{"code":"bad_request","message":"#), "\(answer.prefix(300))")
        }
    }

    @Test func anOutsideLastEventIdIsA400AndTheServerLivesOn() async throws {
        let server = try await ServerProcess()
        let token = try await server.login("ada", password: "secret-ada")
        for path in ["/api/v1/inbox", "/api/v1/topics/a/%23"] {
            let connection = try RawConnection(port: server.base.port!)
            try connection.send(
                "GET \(path) HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer \(token)\r\n"
                    + "Accept: text/event-stream\r\nLast-Event-ID: 18446744073709551615\r\nConnection: close\r\n\r\n")
            let answer = try await connection.readUntilClosed()
            #expect(answer.hasPrefix("HTTP/1.1 400"), "\(path): \(answer)")
            #expect(answer.contains("Last-Event-ID"), "\(answer)")
        }
        #expect(try await server.send("GET", "healthz").status == 200)
    }

    /// However its client leaves — closing the socket, shutting its side, or resetting the connection — a live stream
    /// ends at once: with keep-alives ten minutes apart, no write would tell the server before then.
    @Test(arguments: ["close", "shutdown", "reset"])
    func aLiveStreamEndsWhenItsClientLeaves(_ leaving: String) async throws {
        let server = try await ServerProcess(extraArguments: ["--stream-keep-alive", "600"])
        let token = try await server.login("ada", password: "secret-ada")
        var connection: RawConnection? = try RawConnection(port: server.base.port!)
        try connection!.send(
            "GET /api/v1/inbox HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer \(token)\r\n"
                + "Accept: text/event-stream\r\n\r\n")
        #expect(try await connection!.read(until: ": stream open").hasPrefix("HTTP/1.1 200"))
        #expect(try await server.openLiveStreams() == 1)
        switch leaving {
        case "shutdown": try connection!.shutdownWriting()
        case "reset": try connection!.resetOnClose()
        default: break
        }
        if leaving != "shutdown" { connection = nil }  // closes the socket
        try await eventually("the stream to end after its client left (\(leaving))") {
            try await server.openLiveStreams() == 0
        }
        if let connection {
            // The half-closed client is told the stream ended: the server closed the connection.
            #expect(try await connection.readUntilClosed(limit: 5) == "")
        }
        #expect(try await server.send("GET", "healthz").status == 200)
    }

}
