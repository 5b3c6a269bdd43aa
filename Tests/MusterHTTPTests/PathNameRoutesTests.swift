import Foundation
import Hummingbird
import Testing

@testable import MusterHTTP

/// A name in a route's path arrives percent-encoded — the only way a URL carries `é`, a space or a `/` — and names
/// the thing of the decoded name: the group `équipe`, the device `my phone`, the push source `web/push`.
@Suite struct PathNameRoutesTests {
    @Test func aGroupAndAPayloadAreStoredUnderTheirDecodedNames() async throws {
        let api = try await APITester.make()
        defer { api.remove() }
        try await api.run { client in
            let ada = try await client.login("ada")
            let group = try await client.send(
                .put, "/api/v1/groups/%C3%A9quipe", token: ada, json: #"{"members":["joe"]}"#)
            #expect(group.status == .ok, "\(group.text)")
            #expect(group.object["name"] as? String == "équipe")
            let groups = try await client.send(.get, "/api/v1/groups", token: ada)
            #expect(groups.array.compactMap { $0["name"] as? String }.contains("équipe"), "\(groups.text)")

            let stored = try await client.send(
                .put, "/api/v1/payloads/r%C3%A9sum%C3%A9", token: ada, json: #"{"responseTopic":"/r","fields":[]}"#)
            #expect(stored.object["name"] as? String == "résumé", "\(stored.text)")
            let sent = try await client.send(
                .post, "/api/v1/notifications", token: ada,
                json: #"{"groups":["équipe"],"title":"t","body":"b","payload":{"payloadName":"résumé"}}"#)
            #expect(sent.status == .created, "\(sent.text)")
            #expect(sent.object["recipients"] as? [String] == ["joe"])
        }
    }

    @Test func aDeviceAndAPushSourceWithASpaceOrASlashCanBeRemoved() async throws {
        let api = try await APITester.make()
        defer { api.remove() }
        try await api.run { client in
            let joe = try await client.login("joe")
            let registered = try await client.send(
                .post, "/api/v1/devices", token: joe,
                json: #"{"deviceId":"my phone","deviceName":"x","platform":"apns"}"#)
            #expect(registered.status == .created, "\(registered.text)")
            let removed = try await client.send(.delete, "/api/v1/devices/my%20phone", token: joe)
            #expect(removed.status == .noContent, "\(removed.text)")
            #expect(try await client.send(.get, "/api/v1/devices", token: joe).array.isEmpty)

            let ada = try await client.login("ada")
            let source = try await client.send(
                .post, "/api/v1/push/sources", token: ada,
                json: #"{"name":"web/push","kind":"webpush","subject":"mailto:ops@example.org"}"#)
            #expect(source.status == .created, "\(source.text)")
            let gone = try await client.send(.delete, "/api/v1/push/sources/web%2Fpush", token: ada)
            #expect(gone.status == .noContent, "\(gone.text)")
        }
    }

    @Test func aPathNameThatIsNotPercentEncodingIsRefusedNamingIt() async throws {
        let api = try await APITester.make()
        defer { api.remove() }
        try await api.run { client in
            let joe = try await client.login("joe")
            let refused = try await client.send(.delete, "/api/v1/devices/a%ZZ", token: joe)
            #expect(refused.status == .badRequest, "\(refused.text)")
            #expect(refused.errorFields == ["deviceId"], "\(refused.text)")
        }
    }
}
