import Foundation
import Hummingbird
import Testing

@testable import MusterHTTP

/// `GET /api/v1/users/{name}/devices`: an administrator reads one user's devices; nobody else may.
@Suite struct UserDeviceRoutesTests {
    @Test func anAdministratorReadsAUsersDevices() async throws {
        let api = try await APITester.make()
        defer { api.remove() }
        try await api.run { client in
            let ada = try await client.login("ada")
            let joe = try await client.login("joe")
            let registered = try await client.send(
                .post, "/api/v1/devices", token: joe,
                json: #"{"deviceId":"joe-phone","deviceName":"Joe's phone","platform":"apns"}"#)
            #expect(registered.status == .created, "\(registered.text)")

            let listed = try await client.send(.get, "/api/v1/users/joe/devices", token: ada)
            #expect(listed.status == .ok, "\(listed.text)")
            #expect(listed.array.map { $0["deviceId"] as? String } == ["joe-phone"])
            #expect(listed.array.first?["deviceName"] as? String == "Joe's phone")
            #expect(try await client.send(.get, "/api/v1/users/ada/devices", token: ada).array.isEmpty)

            let unknown = try await client.send(.get, "/api/v1/users/zed/devices", token: ada)
            #expect(unknown.status == .notFound)
            #expect(unknown.errorMessage.contains("zed"), "\(unknown.errorMessage)")
            let forbidden = try await client.send(.get, "/api/v1/users/joe/devices", token: joe)
            #expect(forbidden.status == .forbidden)
        }
    }
}
