import Foundation
import Testing

/// The log line of a refused request names who was refused: the logged-in caller, or `-` before a login
/// (Docs/operations.md, "What the server logs").
@Suite struct RefusalLogTests {
    @Test func aRefusalsLogLineNamesTheCaller() async throws {
        let server = try await ServerProcess()
        let ada = try await server.login("ada", password: "secret-ada")
        let refused = try await server.send("GET", "api/v1/users/nobody/devices", token: ada)
        #expect(refused.status == 404)
        #expect(try await server.send("GET", "api/v1/inbox").status == 401)
        let lines = server.running.stderr.split(separator: "\n")
        let adas = lines.filter { $0.contains("path=/api/v1/users/nobody/devices") }
        #expect(adas.count == 1 && adas[0].contains("user=ada"), "\(lines)")
        let anonymous = lines.filter { $0.contains("path=/api/v1/inbox") }
        #expect(anonymous.count == 1 && anonymous[0].contains("user=-"), "\(lines)")
    }
}
