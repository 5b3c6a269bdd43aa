import Foundation
import Hummingbird
import Muster
import MusterHTTP
import Testing

@Suite struct NotificationRoutesTests {
    @Test func anAdministratorSendsToAGroupAndEachMemberAnswersOnce() async throws {
        let api = try await APITester.make()
        defer { api.remove() }
        try await api.run { client in
            let ada = try await client.login("ada")
            let joe = try await client.login("joe")
            let sent = try await client.send(
                .post, "/api/v1/notifications", token: ada,
                json: #"{"groups":["ops"],"to":["joe"],"title":"Colour","body":"Pick one","payload":\#(colourPayload)}"#
            )
            #expect(sent.status == .created, "\(sent.text)")
            #expect(sent.object["recipients"] as? [String] == ["joe", "ann"])
            let inbox = try await client.send(.get, "/api/v1/inbox", token: joe)
            #expect(inbox.status == .ok)
            #expect(inbox.array.count == 1)
            let messageId = try #require(inbox.array.first?["messageId"] as? String)
            #expect(inbox.array.first?["responseTopic"] as? String == "/a/b/c")

            let message = try await client.send(.get, "/api/v1/messages/\(messageId)", token: joe)
            #expect(message.status == .ok)
            #expect(message.object["sender"] as? String == "ada")
            let payload = try #require(message.object["payload"] as? [String: Any])
            #expect((payload["fields"] as? [[String: Any]])?.first?["id"] as? String == "simpleDropList")

            let answer = try await client.send(
                .post, "/api/v1/messages/\(messageId)/response", token: joe,
                json: #"{"deviceId":"phone","deviceName":"Joe's phone","values":{"simpleDropList":"Red"}}"#)
            #expect(answer.status == .created, "\(answer.text)")
            #expect(answer.object["username"] as? String == "joe")
            #expect(answer.object["deviceName"] as? String == "Joe's phone")
            #expect(answer.object["submitValue"] as? Int == 0)
            #expect((answer.object["values"] as? [String: Any])?["simpleDropList"] as? String == "Red")
            #expect((answer.object["state"] as? [String: Any])?["myStateData"] as? Int == 123)
            #expect(try await client.send(.get, "/api/v1/inbox", token: joe).array.isEmpty)

            let head = api.log.head
            let again = try await client.send(
                .post, "/api/v1/messages/\(messageId)/response", token: joe,
                json: #"{"deviceId":"tablet","values":{"simpleDropList":"Green"}}"#)
            #expect(again.status == .conflict)
            #expect(again.errorCode == "conflict")
            #expect(api.log.head == head)
        }
    }

    @Test func invalidValuesAre422NamingEachFieldAndStoreNothing() async throws {
        let api = try await APITester.make()
        defer { api.remove() }
        try await api.run { client in
            let ada = try await client.login("ada")
            let joe = try await client.login("joe")
            let sent = try await client.send(
                .post, "/api/v1/notifications", token: ada,
                json: #"{"to":["joe"],"title":"Colour","body":"Pick","payload":\#(colourPayload)}"#)
            let id = try #require((sent.object["messageIds"] as? [String])?.first)
            let head = api.log.head
            let answer = try await client.send(
                .post, "/api/v1/messages/\(id)/response", token: joe,
                json: #"{"deviceId":"phone","values":{"simpleDropList":"Purple"}}"#)
            #expect(answer.status == .unprocessableContent)
            #expect(answer.errorCode == "invalid_values")
            #expect(answer.errorFields == ["simpleDropList"])
            #expect(api.log.head == head)
            #expect(try await client.send(.get, "/api/v1/inbox", token: joe).array.count == 1)
        }
    }

    @Test func anInvalidPayloadIs422AndAPayloadAboveThePushLimitIsStillSent() async throws {
        let api = try await APITester.make()
        defer { api.remove() }
        try await api.run { client in
            let ada = try await client.login("ada")
            let head = api.log.head
            let invalid = try await client.send(
                .post, "/api/v1/notifications", token: ada,
                json:
                    #"{"to":["joe"],"title":"T","body":"B","payload":{"responseTopic":"/a","fields":[{"type":"inputInteger"}]}}"#
            )
            #expect(invalid.status == .unprocessableContent)
            #expect(invalid.errorCode == "invalid_payload")
            #expect(!invalid.errorFields.isEmpty)
            let label = String(repeating: "x", count: 5000)
            let big = try await client.send(
                .post, "/api/v1/notifications", token: ada,
                json:
                    #"{"to":["joe"],"title":"T","body":"B","payload":{"responseTopic":"/a","fields":[{"type":"text","label":"\#(label)"}]}}"#
            )
            // Above the push size limit is still sent (seed 000's sendPayload): the push carries its id.
            #expect(big.status == .created, "\(big.text)")
            #expect(api.log.head == head + 1)
        }
    }

    @Test func aUserCannotSendAndMalformedBodiesAre400NamingTheMember() async throws {
        let api = try await APITester.make()
        defer { api.remove() }
        try await api.run { client in
            let joe = try await client.login("joe")
            let ada = try await client.login("ada")
            let forbidden = try await client.send(
                .post, "/api/v1/notifications", token: joe,
                json: #"{"to":["ann"],"title":"T","body":"B","payload":\#(colourPayload)}"#)
            #expect(forbidden.status == .forbidden)
            let head = api.log.head
            let missing = try await client.send(
                .post, "/api/v1/notifications", token: ada, json: #"{"to":["ann"],"body":"B","payload":{}}"#)
            #expect(missing.status == .badRequest)
            #expect(missing.errorFields == ["title"])
            let mistyped = try await client.send(
                .post, "/api/v1/notifications", token: ada,
                json: #"{"to":"ann","title":"T","body":"B","payload":{}}"#)
            #expect(mistyped.status == .badRequest)
            #expect(mistyped.errorFields == ["to"])
            let broken = try await client.send(.post, "/api/v1/notifications", token: ada, json: #"{"to":["ann""#)
            #expect(broken.status == .badRequest)
            #expect(broken.errorMessage.contains("not valid JSON"))
            let wrongType = try await client.send(
                .post, "/api/v1/notifications", token: ada, body: Array("to=ann".utf8),
                headers: [.contentType: "application/x-www-form-urlencoded"])
            #expect(wrongType.status == .unsupportedMediaType)
            let unknownUser = try await client.send(
                .post, "/api/v1/notifications", token: ada,
                json: #"{"to":["nobody"],"title":"T","body":"B","payload":\#(colourPayload)}"#)
            #expect(unknownUser.status == .badRequest)
            #expect(unknownUser.errorMessage.contains("nobody"))
            #expect(api.log.head == head)
        }
    }

    @Test func requestTemplatesAreListedAndAnsweredUnasked() async throws {
        let api = try await APITester.make()
        defer { api.remove() }
        try await api.run { client in
            let ada = try await client.login("ada")
            let joe = try await client.login("joe")
            let fields = #"{"fields":[{"id":"what","type":"inputString","label":"What broke?"}]}"#
            let template = #"{"title":"Report","body":"Tell us","responseTopic":"/faults/new","payload":\#(fields)}"#
            #expect(
                try await client.send(.put, "/api/v1/requests/report", token: joe, json: template).status == .forbidden)
            #expect(try await client.send(.put, "/api/v1/requests/report", token: ada, json: template).status == .ok)
            let listed = try await client.send(.get, "/api/v1/requests", token: joe)
            #expect(listed.array.map { $0["name"] as? String } == ["report"])
            let answer = try await client.send(
                .post, "/api/v1/requests/report/response", token: joe,
                json: #"{"deviceId":"phone","values":{"what":"pump 3"}}"#)
            #expect(answer.status == .created, "\(answer.text)")
            #expect(answer.object["responseTopic"] as? String == "/faults/new")
            #expect(
                try await client.send(
                    .post, "/api/v1/requests/nothing/response", token: joe, json: #"{"deviceId":"p","values":{}}"#
                ).status == .notFound)
        }
    }

    @Test func namedPayloadsAreStoredByAdministratorsAndResolvedWhenFetched() async throws {
        let api = try await APITester.make()
        defer { api.remove() }
        try await api.run { client in
            let ada = try await client.login("ada")
            let joe = try await client.login("joe")
            #expect(
                try await client.send(.put, "/api/v1/payloads/colour", token: ada, json: colourPayload).status == .ok)
            #expect(
                try await client.send(.get, "/api/v1/payloads/colour", token: joe).object["responseTopic"] as? String
                    == "/a/b/c")
            #expect(try await client.send(.get, "/api/v1/payloads/none", token: joe).status == .notFound)
            let sent = try await client.send(
                .post, "/api/v1/notifications", token: ada,
                json:
                    #"{"to":["joe"],"title":"T","body":"B","payload":{"responseTopic":"/x/y","payloadName":"colour"}}"#)
            #expect(sent.status == .created, "\(sent.text)")
            let id = try #require((sent.object["messageIds"] as? [String])?.first)
            let message = try await client.send(.get, "/api/v1/messages/\(id)", token: joe)
            let payload = try #require(message.object["payload"] as? [String: Any])
            #expect(payload["responseTopic"] as? String == "/x/y")
            #expect((payload["fields"] as? [[String: Any]])?.count == 1)
        }
    }

    /// Seed 000: "Whatever you supply will be copied unaltered into the `state` property of the Response Object" —
    /// a 64-bit id too, which a `Double` would round (9007199254740993 to …992), through a named payload's merge.
    @Test func aStateWith64BitIdsComesBackUnalteredInTheResponse() async throws {
        let api = try await APITester.make()
        defer { api.remove() }
        try await api.run { client in
            let ada = try await client.login("ada")
            let joe = try await client.login("joe")
            #expect(
                try await client.send(.put, "/api/v1/payloads/colour", token: ada, json: colourPayload).status == .ok)
            let state = #"{"ids":[-9223372036854775808,18446744073709551615],"orderId":9007199254740993}"#
            let sent = try await client.send(
                .post, "/api/v1/notifications", token: ada,
                json: #"{"to":["joe"],"title":"T","body":"B","payload":{"payloadName":"colour","state":\#(state)}}"#)
            #expect(sent.status == .created, "\(sent.text)")
            let id = try #require((sent.object["messageIds"] as? [String])?.first)
            #expect(try await client.send(.get, "/api/v1/messages/\(id)", token: joe).text.contains(state))
            let answer = try await client.send(
                .post, "/api/v1/messages/\(id)/response", token: joe,
                json: #"{"deviceId":"phone","values":{"simpleDropList":"Red"}}"#)
            #expect(answer.status == .created, "\(answer.text)")
            #expect(answer.text.contains(#""state":\#(state)"#), "\(answer.text)")
        }
    }

    @Test func severalMessagesAreWithdrawnAllOrNone() async throws {
        let api = try await APITester.make()
        defer { api.remove() }
        try await api.run { client in
            let ada = try await client.login("ada")
            let joe = try await client.login("joe")
            let sent = try await client.send(
                .post, "/api/v1/notifications", token: ada,
                json: #"{"groups":["ops"],"title":"Colour","body":"Pick one","payload":\#(colourPayload)}"#)
            let ids = try #require(sent.object["messageIds"] as? [String])
            let answered = try await client.send(
                .post, "/api/v1/messages/\(ids[0])/response", token: joe,
                json: #"{"deviceId":"phone","values":{"simpleDropList":"Red"}}"#)
            #expect(answered.status == .created, "\(answered.text)")

            let head = api.log.head
            for (json, status, field) in [
                (#"{"messageIds":["\#(ids[1])","\#(ids[0])"]}"#, HTTPResponse.Status.conflict, "messageId"),
                (#"{"messageIds":["\#(ids[1])","\#(UUID().uuidString)"]}"#, .notFound, "messageId"),
                (#"{"messageIds":[]}"#, .badRequest, "messageIds"),
                (#"{"messageIds":["nope"]}"#, .badRequest, "messageIds[0]"),
            ] {
                let refused = try await client.send(.post, "/api/v1/withdrawals", token: ada, json: json)
                #expect(refused.status == status && refused.errorFields == [field], "\(json): \(refused.text)")
            }
            #expect(api.log.head == head, "ann's message was not withdrawn with a refused one")
            let byJoe = try await client.send(
                .post, "/api/v1/withdrawals", token: joe, json: #"{"messageIds":["\#(ids[1])"]}"#)
            #expect(byJoe.status == .forbidden)

            let withdrawn = try await client.send(
                .post, "/api/v1/withdrawals", token: ada, json: #"{"messageIds":["\#(ids[1])","\#(ids[1])"]}"#)
            #expect(withdrawn.status == .ok)
            #expect(withdrawn.object as NSDictionary == ["withdrawn": [ids[1]]], "each once")
            #expect(api.log.head == head + 1)
        }
    }
}
