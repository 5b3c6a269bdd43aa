import Foundation
import Hummingbird
import Testing

@testable import MusterHTTP

/// `POST /api/v1/devices` with platform `mqtt`: the device's SubscribeTopic as `token`, its PublishTopic as
/// `publishTopic`, both shown back; a bad or taken topic is refused naming the field.
@Suite struct MQTTDeviceRoutesTests {
    static let phone =
        #"{"deviceId":"9A093D8F","deviceName":"Cedalo iPhone","platform":"mqtt","token":"hello/world","publishTopic":"cedalo/iPhone"}"#

    @Test func anMQTTDeviceIsRegisteredAndListedWithBothTopics() async throws {
        let api = try await APITester.make()
        defer { api.remove() }
        try await api.run { client in
            let joe = try await client.login("joe")
            let registered = try await client.send(.post, "/api/v1/devices", token: joe, json: Self.phone)
            #expect(registered.status == .created, "\(registered.text)")
            #expect(registered.object["token"] as? String == "hello/world")
            #expect(registered.object["publishTopic"] as? String == "cedalo/iPhone")
            let listed = try await client.send(.get, "/api/v1/devices", token: joe)
            #expect(listed.array.first?["publishTopic"] as? String == "cedalo/iPhone")
            #expect(listed.array.first?["platform"] as? String == "mqtt")
        }
    }

    @Test(arguments: [
        (#"{"deviceId":"d","deviceName":"D","platform":"mqtt","token":"hello/world"}"#, "publishTopic"),
        (#"{"deviceId":"d","deviceName":"D","platform":"mqtt","publishTopic":"cedalo/d"}"#, "token"),
        (#"{"deviceId":"d","deviceName":"D","platform":"mqtt","token":"a","publishTopic":"cedalo/#"}"#, "publishTopic"),
        (
            #"{"deviceId":"d","deviceName":"D","platform":"apns","token":"ab","publishTopic":"cedalo/d"}"#,
            "publishTopic"
        ),
    ])
    func aBadTopicIsA400NamingTheField(body: String, field: String) async throws {
        let api = try await APITester.make()
        defer { api.remove() }
        try await api.run { client in
            let joe = try await client.login("joe")
            let refused = try await client.send(.post, "/api/v1/devices", token: joe, json: body)
            #expect(refused.status == .badRequest, "\(refused.text)")
            #expect(refused.errorFields == [field], "\(refused.text)")
            #expect(refused.errorMessage.contains(field), "\(refused.errorMessage)")
            #expect(try await client.send(.get, "/api/v1/devices", token: joe).array.isEmpty)
        }
    }

    @Test func aPublishTopicAnotherDeviceHasIsA409NamingThatDevice() async throws {
        let api = try await APITester.make()
        defer { api.remove() }
        try await api.run { client in
            let joe = try await client.login("joe")
            let ada = try await client.login("ada")
            #expect(try await client.send(.post, "/api/v1/devices", token: joe, json: Self.phone).status == .created)
            let taken = try await client.send(
                .post, "/api/v1/devices", token: ada,
                json:
                    #"{"deviceId":"ada-phone","deviceName":"A","platform":"mqtt","token":"t","publishTopic":"cedalo/iPhone"}"#
            )
            #expect(taken.status == .conflict, "\(taken.text)")
            #expect(taken.errorMessage.contains("9A093D8F"), "\(taken.errorMessage)")
            #expect(taken.errorFields == ["publishTopic"], "\(taken.text)")
        }
    }
}
