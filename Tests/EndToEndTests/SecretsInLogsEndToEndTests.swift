import Foundation
import Testing

/// No password or token reaches the server's log lines: logins right and wrong, a malformed login body, a
/// refresh, a replayed refresh token and a logout leave none of them on stderr (issue 16) — in either log format, at
/// the default level and at the most verbose one (where the libraries log too).
@Suite struct SecretsInLogsEndToEndTests {
    @Test(arguments: [
        [], ["--log-format", "json"], ["--log-level", "trace"], ["--log-format", "json", "--log-level", "trace"],
    ])
    func passwordsAndTokensNeverReachTheServersLog(logOptions: [String]) async throws {
        let server = try await ServerProcess(extraArguments: logOptions)
        let wrong = try await server.send(
            "POST", "api/v1/auth/token", json: #"{"username":"ada","password":"wrong-pw-4711"}"#)
        #expect(wrong.status == 401)
        let malformed = try await server.send(
            "POST", "api/v1/auth/token", json: #"{"username":"ada","password":"torn-pw-4712""#)
        #expect(malformed.status == 400)
        let mistyped = try await server.send(
            "POST", "api/v1/auth/token", json: #"{"username":"ada","password":["typed-pw-4713"]}"#)
        #expect(mistyped.status == 400)
        let login = try await server.send(
            "POST", "api/v1/auth/token", json: #"{"username":"ada","password":"secret-ada"}"#)
        let access = try #require(login.object["accessToken"] as? String)
        let refresh = try #require(login.object["refreshToken"] as? String)
        let refreshed = try await server.send(
            "POST", "api/v1/auth/refresh", json: #"{"refreshToken":"\#(refresh)"}"#)
        #expect(refreshed.status == 200)
        let replayed = try await server.send(
            "POST", "api/v1/auth/refresh", json: #"{"refreshToken":"\#(refresh)"}"#)
        #expect(replayed.status == 401)
        let stale = try await server.send("GET", "api/v1/inbox", token: access)
        #expect(stale.status == 401)
        let newAccess = try #require(refreshed.object["accessToken"] as? String)
        #expect(try await server.send("POST", "api/v1/auth/logout", token: newAccess).status == 401)

        // The refusals were logged (so the check below reads real log lines)…
        let log = server.running.stderr
        #expect(log.contains("refused"), "\(log)")
        if logOptions.contains("json") {
            let lines = log.split(separator: "\n").filter { $0.hasPrefix("{") }
            #expect(lines.count >= 4, "\(log)")
            for line in lines {
                #expect((try? JSONSerialization.jsonObject(with: Data(line.utf8))) is [String: Any], "\(line)")
            }
        }
        // …and carry none of the secrets.
        for secret in ["wrong-pw-4711", "torn-pw-4712", "typed-pw-4713", "secret-ada", access, refresh, newAccess] {
            #expect(!log.contains(secret), "the log holds \(secret.prefix(6))…")
        }
    }
}
