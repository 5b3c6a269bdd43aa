import Foundation
import Hummingbird
import Muster
import MusterHTTP
import Testing

/// Location, transition and sighting reports move only the reporter's own device (issue 10).
@Suite struct DeviceReportRoutesTests {
    static let door = #"""
        {"lat":48.87,"lng":2.33,"radius":0.05,"rules_actions":[{"id":"hi","rule":{"trigger":"on_entry"},
         "action":{"notify_user":"Hello"}}]}
        """#
    static let inside = #""lat":48.87,"lng":2.33"#
    static let far = #""lat":48.92,"lng":2.33"#

    @Test func aDeviceRegisteredToAnotherUserIsRefusedWith409AndNothingIsRecorded() async throws {
        let api = try await APITester.make()
        defer { api.remove() }
        try await api.run { client in
            let ada = try await client.login("ada")
            let joe = try await client.login("joe")
            let ann = try await client.login("ann")
            #expect(
                try await client.send(.put, "/api/v1/geofences/door", token: ada, json: Self.door).status == .created)
            let registered = try await client.send(
                .post, "/api/v1/devices", token: joe,
                json: #"{"deviceId":"joe-phone","deviceName":"Joe's phone","platform":"apns"}"#)
            #expect(registered.status == .created)
            let entered = try await client.send(
                .post, "/api/v1/locations", token: joe, json: #"{"deviceId":"joe-phone",\#(Self.inside)}"#)
            #expect(entered.object["transitions"] as? [[String: String]] == [["area": "door", "trigger": "on_entry"]])

            let head = api.log.head
            for (path, body) in [
                ("/api/v1/locations", #"{"deviceId":"joe-phone",\#(Self.far)}"#),
                ("/api/v1/transitions", #"{"deviceId":"joe-phone","area":"door","trigger":"on_exit"}"#),
                (
                    "/api/v1/beacons/sightings",
                    #"{"deviceId":"joe-phone","uuid":"566C5595-6EC7-4F08-909F-C954BDCA6CD3","major":1,"minor":1,"rssi":-60}"#
                ),
            ] {
                let refused = try await client.send(.post, path, token: ann, json: body)
                #expect(refused.status == .conflict, "\(path): \(refused.text)")
                #expect(refused.errorCode == "conflict")
                #expect(
                    refused.errorMessage.hasPrefix(#"deviceId: device "joe-phone" is registered to another user"#),
                    "\(refused.text)")
                #expect(!refused.errorMessage.contains("joe "), "the owner is named: \(refused.text)")
            }
            #expect(api.log.head == head)
            // joe is still at the door: his next fix there changes nothing and tells him nothing again.
            let again = try await client.send(
                .post, "/api/v1/locations", token: joe, json: #"{"deviceId":"joe-phone",\#(Self.inside)}"#)
            #expect(again.status == .ok)
            #expect((again.object["transitions"] as? [Any])?.isEmpty == true, "\(again.text)")
            let inbox = try await client.send(.get, "/api/v1/inbox", token: joe)
            #expect(inbox.array.map { $0["body"] as? String } == ["Hello"])
        }
    }

    @Test func anUnregisteredDeviceIdSharedByTwoUsersKeepsTheirPresenceApart() async throws {
        let api = try await APITester.make()
        defer { api.remove() }
        try await api.run { client in
            let ada = try await client.login("ada")
            let joe = try await client.login("joe")
            let ann = try await client.login("ann")
            #expect(
                try await client.send(.put, "/api/v1/geofences/door", token: ada, json: Self.door).status == .created)
            let joeIn = try await client.send(
                .post, "/api/v1/locations", token: joe, json: #"{"deviceId":"tablet",\#(Self.inside)}"#)
            #expect((joeIn.object["transitions"] as? [Any])?.count == 1)
            let annFar = try await client.send(
                .post, "/api/v1/locations", token: ann, json: #"{"deviceId":"tablet",\#(Self.far)}"#)
            #expect(annFar.status == .ok)
            #expect((annFar.object["transitions"] as? [Any])?.isEmpty == true, "\(annFar.text)")
            let annOut = try await client.send(
                .post, "/api/v1/transitions", token: ann,
                json: #"{"deviceId":"tablet","area":"door","trigger":"on_exit"}"#
            )
            #expect((annOut.object["ignored"] as? String)?.contains("already outside") == true, "\(annOut.text)")
            let joeAgain = try await client.send(
                .post, "/api/v1/locations", token: joe, json: #"{"deviceId":"tablet",\#(Self.inside)}"#)
            #expect((joeAgain.object["transitions"] as? [Any])?.isEmpty == true, "\(joeAgain.text)")
            #expect(try await client.send(.get, "/api/v1/inbox", token: joe).array.count == 1)
            #expect(try await client.send(.get, "/api/v1/inbox", token: ann).array.isEmpty)
        }
    }
}
