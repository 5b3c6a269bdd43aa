import Foundation
import MusterWire
import Testing

@testable import MusterClient

private func decode<T: Decodable>(_ type: T.Type, _ json: String) throws -> T {
    try MusterJSON.decoder().decode(T.self, from: Data(json.utf8))
}

@Suite struct DateCodingTests {
    @Test(
        arguments: [
            ("2026-11-21T17:00:00Z", 1_795_280_400.0),
            ("2026-11-21T17:00:00.5Z", 1_795_280_400.5),
            ("2026-11-21T17:00:00.123Z", 1_795_280_400.123),
            ("2026-11-21T17:00:00.123456Z", 1_795_280_400.123456),
            ("2026-11-21T18:00:00+01:00", 1_795_280_400.0),
            ("1970-01-01T00:00:00Z", 0.0),
        ] as [(String, Double)])
    func isoDatesDecode(_ text: String, _ seconds: Double) throws {
        let date = try decode([Date].self, #"["\#(text)"]"#)[0]
        #expect(abs(date.timeIntervalSince1970 - seconds) < 0.000_5)
    }

    @Test(arguments: ["2026-11-21", "17:00:00", "yesterday", "", "2026-13-01T00:00:00Z", "1795280400"])
    func otherTextIsRefused(_ text: String) {
        #expect(throws: DecodingError.self) { try decode([Date].self, #"["\#(text)"]"#) }
    }

    @Test func aNumberIsRefused() {
        #expect(throws: DecodingError.self) { try decode([Date].self, "[1795280400]") }
    }

    /// The server's rule: UTC with milliseconds, cut (not rounded) from the time.
    @Test(arguments: [
        (1_795_280_400.7, "2026-11-21T17:00:00.700Z"), (1_795_280_400, "2026-11-21T17:00:00.000Z"),
        (1_795_280_400.123999, "2026-11-21T17:00:00.123Z"), (1_795_280_400.999999, "2026-11-21T17:00:00.999Z"),
        (-0.25, "1969-12-31T23:59:59.750Z"),
    ])
    func datesEncodeInMillisecondsUTC(seconds: Double, text: String) throws {
        let data = try MusterJSON.encoder().encode([Date(timeIntervalSince1970: seconds)])
        #expect(String(decoding: data, as: UTF8.self) == "[\"\(text)\"]")
    }
}

@Suite struct ModelDecodingTests {
    @Test func inboxItem() throws {
        let items = try decode(
            [InboxItem].self,
            #"""
            [{"messageId": "3f2b8c1e-9a4d-4e6f-8b7a-1c2d3e4f5a6b", "title": "Example", "body": "Pick a colour",
              "sentAt": "2026-11-21T17:00:00Z", "responseTopic": "/a/b/c"}]
            """#)
        #expect(items.count == 1)
        #expect(items[0].messageId == UUID(uuidString: "3F2B8C1E-9A4D-4E6F-8B7A-1C2D3E4F5A6B"))
        #expect(items[0].sentAt == Date(timeIntervalSince1970: 1_795_280_400))
        #expect(items[0].responseTopic == "/a/b/c")
    }

    @Test func messageWithPayload() throws {
        let message = try decode(
            Message.self,
            #"""
            {"messageId": "3f2b8c1e-9a4d-4e6f-8b7a-1c2d3e4f5a6b", "title": "Example", "body": "Pick a colour",
             "sentAt": "2026-11-21T17:00:00.250Z", "sender": "ops",
             "payload": {"responseTopic": "/a/b/c", "state": {"myStateData": 123},
                         "fields": [{"id": "simpleDropList", "type": "droplist", "label": "Pick your favorite color",
                                     "values": ["Red", "Green", "Blue"], "default": "Blue"}]}}
            """#)
        #expect(message.source == nil)
        #expect(message.sender == "ops")
        #expect(message.responseTopic == "/a/b/c")
        #expect(message.fields.count == 1)
        #expect(message.fields[0]["values"]?[2] == "Blue")
        #expect(message.payload["state"]?["myStateData"]?.intValue == 123)
        #expect(message.sentAt.timeIntervalSince1970 == 1_795_280_400.25)
    }

    @Test func responseObjectOfSeed000() throws {
        let response = try decode(
            ResponseObject.self,
            #"""
            {"responseTopic": "/a/b/c", "submitValue": 0, "username": "joeuser@gmail.com",
             "deviceId": "75e0540bf21638bd", "deviceName": "HTC Desire 310",
             "values": {"simpleDropList": "Green", "photo": null, "age": 42, "ok": true},
             "state": {"myStateData": 123}}
            """#)
        #expect(response.values["simpleDropList"] == "Green")
        #expect(response.values["photo"] == .null)
        #expect(response.values["age"]?.intValue == 42)
        #expect(response.values["ok"]?.boolValue == true)
        #expect(response.state == ["myStateData": 123])
    }

    @Test func responseStateAbsentNullAndPresentStayDistinct() throws {
        let base = #""responseTopic":"/t","submitValue":1,"username":"u","deviceId":"d","deviceName":"n","values":{}"#
        let absent = try decode(ResponseObject.self, "{\(base)}")
        let null = try decode(ResponseObject.self, #"{\#(base),"state":null}"#)
        #expect(absent.state == nil)
        #expect(null.state == .null)
        let encoder = MusterJSON.encoder()
        #expect(!String(decoding: try encoder.encode(absent), as: UTF8.self).contains("state"))
        #expect(String(decoding: try encoder.encode(null), as: UTF8.self).contains(#""state":null"#))
        #expect(try decode(ResponseObject.self, String(decoding: try encoder.encode(null), as: UTF8.self)) == null)
    }

    @Test func pushTargetAndPlatforms() throws {
        let devices = try decode(
            [PushTarget].self,
            #"""
            [{"user": "anna", "deviceId": "phone-1", "deviceName": "Anna's iPhone", "platform": "apns",
              "token": "deadbeef"},
             {"user": "anna", "deviceId": "browser", "deviceName": "Firefox", "platform": "web"}]
            """#)
        #expect(devices.map(\.platform) == [.apns, .web])
        #expect(devices[1].token == nil)
    }

    @Test func requestTemplate() throws {
        let templates = try decode(
            [RequestTemplate].self,
            #"[{"name": "report", "title": "Report", "body": "A problem", "responseTopic": "/r", "payload": {"fields": []}}]"#
        )
        #expect(templates[0].payload["fields"] == [])
    }

    @Test func serverTokens() throws {
        let tokens = try decode(
            AuthTokens.self,
            #"""
            {"accessToken": "a", "refreshToken": "r", "expiresAt": "2026-11-21T17:15:00Z",
             "username": "anna", "preferredUsername": "anna"}
            """#)
        #expect(tokens.refreshToken == "r")
        #expect(tokens.expiresAt == Date(timeIntervalSince1970: 1_795_281_300))
        #expect(tokens.serverType == nil)
    }

    @Test func userSentNotificationAndLocationReport() throws {
        let user = try decode(
            User.self, #"{"username": "ben", "email": "b@example.com", "isAdmin": false, "timeZone": "Europe/Paris"}"#)
        #expect(user.email == "b@example.com")
        #expect(user.phone == nil)
        let sent = try decode(
            SentNotification.self,
            #"{"messageIds": ["3f2b8c1e-9a4d-4e6f-8b7a-1c2d3e4f5a6b"], "recipients": ["anna"]}"#)
        #expect(sent.recipients == ["anna"])
        let report = try decode(
            LocationAnswer.self,
            #"""
            {"transitions": [{"area": "depot", "trigger": "enter"}],
             "outcomes": [{"rule": "welcome", "area": "depot", "fired": false, "reason": "quota reached"}]}
            """#)
        #expect(report.transitions == [.init(area: "depot", trigger: "enter")])
        #expect(report.outcomes[0].reason == "quota reached")
        #expect(try decode(LocationAnswer.self, "{}") == LocationAnswer())
    }

    @Test func geoPointIsLatLng() throws {
        let data = try MusterJSON.encoder().encode(GeoPoint(latitude: 48.85, longitude: 2.35))
        #expect(String(decoding: data, as: UTF8.self) == #"{"lat":48.85,"lng":2.35}"#)
    }
}

@Suite struct JSONValueTests {
    @Test(
        arguments: [
            "null", "true", "false", "0", "-1", "1.5", "9007199254740992", #""text""#, #""""#, "[]", "{}",
            #"[1,"a",null,{"b":[true]}]"#, #"{"a":{"b":{"c":[1,2,3]}},"z":"ü/é"}"#,
        ])
    func roundTripsThroughItsText(_ text: String) throws {
        let value = try JSONValue(json: Data(text.utf8))
        #expect(try JSONValue(json: value.jsonData()) == value)
    }

    @Test func numbersAndBooleansStayApart() throws {
        #expect(try JSONValue(json: Data("1".utf8)) == .number(1))
        #expect(try JSONValue(json: Data("true".utf8)) == .bool(true))
        #expect(try JSONValue(json: Data("[0, false]".utf8)) == [0, false])
    }

    @Test func integersAreWrittenWithoutFraction() {
        let value: JSONValue = ["a": 3, "b": 2.5, "c": .null, "d": [true, "x"]]
        #expect(value.description == #"{"a":3,"b":2.5,"c":null,"d":[true,"x"]}"#)
    }

    @Test func accessors() {
        let value: JSONValue = ["n": 2, "f": 2.5, "s": "x", "b": false, "a": [1], "o": ["k": "v"]]
        #expect(value["n"]?.intValue == 2)
        #expect(value["f"]?.intValue == nil)
        #expect(value["f"]?.doubleValue == 2.5)
        #expect(value["s"]?.stringValue == "x")
        #expect(value["b"]?.boolValue == false)
        #expect(value["a"]?[0] == 1)
        #expect(value["a"]?[1] == nil)
        #expect(value["o"]?["k"] == "v")
        #expect(value["missing"] == nil)
        #expect(JSONValue.null.isNull)
    }
}
