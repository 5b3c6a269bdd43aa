import EventLog
import Foundation
import Migrations
import MusterWire
import Testing

@testable import Muster

/// Every domain event's stored bytes, pinned: logs written by earlier releases must decode, and a
/// new release must write the same bytes for the same event (the schema versions did not change).
@Suite struct EventBytesTests {
    static let message = UUID(uuidString: "6F9619FF-8B86-D011-B42D-00C04FC964FF")!
    static let session = UUID(uuidString: "0E984725-C51C-4BF4-9960-E1C80E27ABA0")!
    static let payload = Array(#"{"title":"Hi","responseTopic":"/r","b":[1,2]}"#.utf8)

    /// One sample of each type with every field set, and one with every optional field left out.
    static let samples: [(name: String, event: any DomainEvent)] = [
        (
            "user",
            UserCreated(
                name: "ada", email: "ada@example.com", timeZone: "Europe/Paris", isAdmin: true,
                password: PasswordHash(salt: [1, 2], hash: [3, 4, 5], rounds: 16384, blockSize: 8, parallelism: 1),
                firstName: "Ada", lastName: nil, phone: "112")
        ),
        ("user-bare", UserCreated(name: "bob", email: nil, timeZone: "UTC", isAdmin: false, password: nil)),
        (
            "password-changed",
            PasswordChanged(
                name: "ada",
                password: PasswordHash(salt: [1, 2], hash: [3, 4, 5], rounds: 16384, blockSize: 8, parallelism: 1))
        ),
        (
            "user-changed",
            UserChanged(
                UserCreated(name: "ada", email: nil, timeZone: "UTC", isAdmin: false, password: nil),
                applying: UserChanges(
                    email: "ada@example.com", firstName: "Ada", lastName: "L", phone: "112", timeZone: "Europe/Paris",
                    isAdmin: true))
        ),
        (
            "user-changed-bare",
            UserChanged(
                UserCreated(name: "bob", email: "b@x", timeZone: "UTC", isAdmin: true, password: nil),
                applying: UserChanges(email: "", isAdmin: false))
        ),
        ("user-removed", UserRemoved(name: "ada")),
        ("group", GroupDefined(name: "staff", members: ["ada", "bob"])),
        ("group-empty", GroupDefined(name: "none", members: [])),
        ("group-removed", GroupRemoved(name: "staff")),
        ("payload-removed", NamedPayloadRemoved(name: "colour")),
        ("request-removed", RequestTemplateRemoved(name: "report")),
        ("document-removed", DocumentRemoved(name: "rcs/image/a.jpg")),
        ("message-withdrawn", MessageWithdrawn(messageId: message, user: "ann")),
        ("device", PushTargetRegistered(user: "ada", deviceId: "d1", deviceName: "Phone", platform: .fcm, token: "t")),
        (
            "device-no-token",
            PushTargetRegistered(user: "ada", deviceId: "d1", deviceName: "", platform: .web, token: nil)
        ),
        (
            "device-mqtt",
            PushTargetRegistered(
                user: "ada", deviceId: "d1", deviceName: "Phone", platform: .mqtt, token: "s/t", publishTopic: "p/t")
        ),
        ("device-gone", PushTargetUnregistered(user: "ada", deviceId: "d1")),
        ("device-pruned", PushTargetUnregistered(user: "ada", deviceId: "d1", reason: "web 410 Gone")),
        (
            "push-source",
            PushSourceConfigured(
                name: "web", kind: .webpush, details: [.init("subject", "mailto:ops@example.org")],
                endpoint: "http://127.0.0.1:9", fingerprint: "ab")
        ),
        ("push-source-gone", PushSourceRemoved(name: "web")),
        (
            "push-delivered",
            PushDelivered(
                messageId: message, user: "ada", deviceId: "d1", source: "web", attempt: 1, providerId: "p",
                carried: .direct)
        ),
        (
            "push-failed",
            PushFailed(
                messageId: message, user: "ada", deviceId: "d1", source: "web", attempt: 2, status: 429,
                reason: "slow down", nextAttemptAt: 1_700_000_000_000_000)
        ),
        (
            "push-failed-for-good",
            PushFailed(
                messageId: message, user: "ada", deviceId: "d1", source: "web", attempt: 1, status: nil,
                reason: "timeout", nextAttemptAt: nil)
        ),
        ("push-expired", PushExpired(messageId: message, user: "ada", deviceId: "d1", attempts: 9)),
        (
            "device-data",
            DeviceDataReported(
                user: "ada", deviceId: "d1", topic: "p/t", body: payload, contentHash: "ab", document: "rcs/image/x.jpg"
            )
        ),
        (
            "device-data-bare",
            DeviceDataReported(user: "ada", deviceId: "d1", topic: "p/t", body: [], contentHash: "ab")
        ),
        (
            "reply-refused",
            ReplyRefused(user: "ada", deviceId: "d1", messageId: message, reason: "no such message", report: 42)
        ),
        ("reply-refused-no-message", ReplyRefused(user: "ada", deviceId: "d1", messageId: nil, reason: "r", report: 1)),
        ("location-request", LocationRequested(requestId: message, user: "ada", reason: "roll call")),
        ("location-request-bare", LocationRequested(requestId: message, user: "ada")),
        (
            "area-notification",
            AreaNotificationHanded(
                noticeId: message, action: .notifyUser, user: "ada", deviceId: "d1", areaKind: "geofence", area: "shop",
                rule: "r", trigger: "on_entry", transition: 7, at: 1_700_000_000_000_000, title: "Shop", body: "Hi",
                openURL: "https://e.example/c", openPBK: nil, data: #"{"k":1}"#, message: #"{"fields":[]}"#,
                responseTopic: "/areas/shop/rules/r", serverURL: nil)
        ),
        (
            "server-notification",
            AreaNotificationHanded(
                noticeId: message, action: .notifyServer, user: "ada", deviceId: "d1", areaKind: "beacon", area: "b",
                rule: "r", trigger: "on_exit", transition: 7, at: 1_700_000_000_000_000, title: "", body: "",
                openURL: nil, openPBK: nil, data: nil, message: "", responseTopic: "", serverURL: "http://h.example/b")
        ),
        (
            "area-notification-performed",
            AreaNotificationPerformed(
                noticeId: message, user: "ada", deviceId: "d1", messageId: session, serverURL: nil)
        ),
        ("area-notification-dismissed", AreaNotificationDismissed(noticeId: message, user: "ada", deviceId: "d1")),
        ("trace-logging-on", DeviceTraceLoggingSet(user: "ada", deviceId: "d1", enabled: true)),
        ("trace-logging-namespace", DeviceTraceLoggingSet(user: "ada", deviceId: "d1", enabled: nil)),
        (
            "sent",
            PayloadSent(
                sender: "op", title: "T", body: "B", source: "src", payload: payload, responseTopic: "/r",
                recipients: [.init(user: "ada", messageId: message), .init(user: "bob", messageId: session)])
        ),
        (
            "sent-mqtt",
            PayloadSent(
                sender: "op", title: "T", body: "B", source: nil, payload: payload, responseTopic: "/r",
                recipients: [.init(user: "ada", messageId: message)],
                mqtt: .init(switchToTab: "QR", switchDelay: 1000, alertCode: 23, flashDuration: 0))
        ),
        (
            "sent-mqtt-instant",
            PayloadSent(
                sender: "op", title: "T", body: "B", source: nil, payload: payload, responseTopic: "/r",
                recipients: [.init(user: "ada", messageId: message)],
                mqtt: .init(
                    switchToTab: "QR", switchDelay: 1000, alertCode: 23, flashDuration: 0, instantSender: ["age"]))
        ),
        (
            "sent-no-source",
            PayloadSent(
                sender: "op", title: "", body: "", source: nil, payload: payload, responseTopic: "/r", recipients: [])
        ),
        (
            "answer",
            ResponseReceived(
                messageId: message, user: "ada", deviceId: "d1", deviceName: "Phone", submitValue: -2,
                response: payload, responseTopic: "/r")
        ),
        (
            "answer-to-request",
            ResponseReceived(
                messageId: message, user: "ada", deviceId: "d1", deviceName: "Phone", submitValue: 300,
                response: payload, responseTopic: "/r", request: "leave")
        ),
        ("named-payload", NamedPayloadStored(name: "p", payload: payload)),
        (
            "request",
            RequestTemplateStored(name: "leave", title: "Leave", body: "Ask", responseTopic: "/r", payload: payload)
        ),
        (
            "document",
            DocumentUploaded(
                name: "rcs/image/x.png", blob: String(repeating: "ab", count: 32), kind: .image,
                contentType: "image/png",
                size: 1 << 40, uploader: "ada")
        ),
        ("setting", SettingChanged(setting: .pushSizeLimit, value: "4096")),
        ("setting-unset", SettingChanged(setting: .pushSizeLimit, value: nil)),
        ("setting-reset", SettingReset(setting: .pushSizeLimit)),
        ("topic", TopicPublished(topic: "/t", document: Array("[1]".utf8))),
        (
            "token",
            TokenIssued(
                sessionId: session, user: "ada", deviceId: "d1", accessTokenHash: "aa", refreshTokenHash: "bb",
                accessExpiresAt: 1_700_000_000_000_000, refreshExpiresAt: -5, reason: .refresh)
        ),
        (
            "token-no-device",
            TokenIssued(
                sessionId: session, user: "ada", deviceId: nil, accessTokenHash: "aa", refreshTokenHash: "bb",
                accessExpiresAt: 0, refreshExpiresAt: 0, reason: .login)
        ),
        ("revoked", TokenRevoked(sessionId: session, user: "ada", deviceId: "d1", reason: .refreshReuse)),
        ("revoked-no-device", TokenRevoked(sessionId: session, user: "ada", deviceId: nil, reason: .logout)),
        ("revoked-user-removed", TokenRevoked(sessionId: session, user: "ada", deviceId: nil, reason: .userRemoved)),
        ("login-failed", LoginFailed(user: "ada", deviceId: "d1", reason: .wrongPassword, clientAddress: "127.0.0.1")),
        ("login-failed-bare", LoginFailed(user: "ada", deviceId: nil, reason: .noPassword)),
        ("area-removed", AreaRemoved(Area.Identity(kind: .geofence, id: "shop"))),
        (
            "area-counts-changed",
            AreaCountsChanged(
                kind: "beacon", area: "b1", rule: "r1", trigger: "on_entry", group: "g",
                old: AreaCountsChanged.Counts(AreaRule(id: "r1", trigger: "on_entry", minEvents: 1, maxEvents: 2)),
                new: AreaCountsChanged.Counts(AreaRule(id: "r1", trigger: "on_entry", maxEvents: 5, maxGroupEvents: 9)))
        ),
        (
            "location",
            LocationReported(
                user: "ada", deviceId: "d1", latitude: 48.87, longitude: -2.33, accuracy: 12.5,
                at: 1_700_000_000_000_001)
        ),
        (
            "location-no-accuracy",
            LocationReported(user: "ada", deviceId: "d1", latitude: 0, longitude: 0, accuracy: nil, at: -1)
        ),
        (
            "beacon",
            BeaconSighted(
                user: "ada", deviceId: "d1", proximityUUID: "E2C56DB5-DFFB-48D2-B060-D0F5A71096E0", major: 65535,
                minor: 0, rssi: -70, measuredPower: -59, proximity: "near", at: 42, regions: ["b1", "b2"])
        ),
        (
            "transition",
            AreaTransition(
                user: "ada", deviceId: "d1", area: "shop", trigger: "on_entry", source: .location, at: 7,
                latitude: 48.87, longitude: 2.33, proximity: nil,
                latches: [.init(rule: "r1", dueAt: 99), .init(rule: "r2", dueAt: -1)], kind: "geofence")
        ),
        (
            "transition-beacon",
            AreaTransition(
                user: "ada", deviceId: "d1", area: "b1", trigger: "on_exit", source: .beacon, at: 7, latitude: nil,
                longitude: nil, proximity: "far", latches: [], kind: "")
        ),
        (
            "evaluated",
            RuleEvaluated(
                user: "ada", deviceId: "d1", area: "shop", rule: "r1", trigger: "on_entry", transition: 300, at: 9,
                fired: true, reason: "notified", areaCount: 0, group: "g", groupCount: 3, day: "2026-11-23",
                dailyCount: 1, messageId: message, serverURL: "http://h", decision: "notify", awaitingServer: true,
                kind: "geofence")
        ),
        (
            "evaluated-bare",
            RuleEvaluated(
                user: "ada", deviceId: "d1", area: "shop", rule: "r1", trigger: "on_exit", transition: 1, at: 9)
        ),
        ("geotrigger-removed", GeotriggerRemoved(id: "g")),
        ("geotrigger-monitor-started", GeotriggerMonitorStarted(id: "g")),
        ("geotrigger-monitor-stopped", GeotriggerMonitorStopped(id: "g")),
        (
            "geotrigger-notified",
            GeotriggerNotified(
                user: "ada", deviceId: "d1", geotrigger: "g", fence: "f", notificationType: "entered", at: 5,
                latitude: 1.5, longitude: -1.5, fired: true, reason: "sent", message: "m", actions: ["a", "b"],
                properties: #"{"k":1}"#, messageId: message)
        ),
        (
            "geotrigger-notified-bare",
            GeotriggerNotified(
                user: "ada", deviceId: "d1", geotrigger: "g", fence: "f", notificationType: "exited", at: 5,
                latitude: 0, longitude: 0, fired: false, reason: "no match")
        ),
    ]

    /// What 0.1.0's hand-written codec wrote for each sample, and the audit's JSON of it.
    static let pinned: [String: (bytes: String, json: String)] = [
        "user": (
            "036164610f616461406578616d706c652e636f6d0c4575726f70652f50617269730101020102030304058080010801034164610003313132",
            #"{"email":"ada@example.com","firstName":"Ada","hasPassword":true,"isAdmin":true,"name":"ada","phone":"112","timeZone":"Europe/Paris"}"#
        ),
        "user-bare": (
            "03626f6200035554430000",
            #"{"hasPassword":false,"isAdmin":false,"name":"bob","timeZone":"UTC"}"#
        ),
        "password-changed": ("03616461020102030304058080010801", #"{"name":"ada"}"#),
        "user-changed": (
            "036164610f616461406578616d706c652e636f6d0c4575726f70652f50617269730103416461014c03313132",
            #"{"email":"ada@example.com","firstName":"Ada","isAdmin":true,"lastName":"L","name":"ada","phone":"112","timeZone":"Europe/Paris"}"#
        ),
        "user-changed-bare": ("03626f62000355544300000000", #"{"isAdmin":false,"name":"bob","timeZone":"UTC"}"#),
        "user-removed": ("03616461", #"{"name":"ada"}"#),
        "group-removed": ("057374616666", #"{"name":"staff"}"#),
        "payload-removed": ("06636f6c6f7572", #"{"name":"colour"}"#),
        "request-removed": ("067265706f7274", #"{"name":"report"}"#),
        "message-withdrawn": (
            "6f9619ff8b86d011b42d00c04fc964ff03616e6e",
            #"{"messageId":"6F9619FF-8B86-D011-B42D-00C04FC964FF","user":"ann"}"#
        ),
        "document-removed": ("0f7263732f696d6167652f612e6a7067", #"{"name":"rcs/image/a.jpg"}"#),
        "group": (
            "057374616666020361646103626f62",
            #"{"members":["ada","bob"],"name":"staff"}"#
        ),
        "group-empty": (
            "046e6f6e6500",
            #"{"members":[],"name":"none"}"#
        ),
        "device": (
            "036164610264310550686f6e650366636d017400",
            #"{"deviceId":"d1","deviceName":"Phone","platform":"fcm","token":"t","user":"ada"}"#
        ),
        "device-no-token": (
            "0361646102643100037765620000",
            #"{"deviceId":"d1","deviceName":"","platform":"web","user":"ada"}"#
        ),
        "device-mqtt": (
            "036164610264310550686f6e65046d71747403732f7403702f74",
            #"{"deviceId":"d1","deviceName":"Phone","platform":"mqtt","publishTopic":"p/t","token":"s/t","user":"ada"}"#
        ),
        "device-data": (
            "0361646102643103702f742d7b227469746c65223a224869222c22726573706f6e7365546f706963223a222f72222c2262223a5b312c325d7d0261620f7263732f696d6167652f782e6a7067",
            #"{"body":{"b":[1,2],"responseTopic":"/r","title":"Hi"},"contentHash":"ab","deviceId":"d1","document":"rcs/image/x.jpg","topic":"p/t","user":"ada"}"#
        ),
        "device-data-bare": (
            "0361646102643103702f740002616200",
            #"{"body":"","contentHash":"ab","deviceId":"d1","topic":"p/t","user":"ada"}"#
        ),
        "device-gone": (
            "0361646102643100",
            #"{"deviceId":"d1","user":"ada"}"#
        ),
        "device-pruned": (
            "036164610264310c7765622034313020476f6e65",
            #"{"deviceId":"d1","reason":"web 410 Gone","user":"ada"}"#
        ),
        "push-source": (
            "03776562077765627075736801077375626a656374166d61696c746f3a6f7073406578616d706c652e6f726712687474703a2f2f3132372e302e302e313a39026162",
            #"{"details":[{"name":"subject","value":"mailto:ops@example.org"}],"endpoint":"http://127.0.0.1:9","fingerprint":"ab","kind":"webpush","name":"web"}"#
        ),
        "push-source-gone": (
            "03776562",
            #"{"name":"web"}"#
        ),
        "push-delivered": (
            "6f9619ff8b86d011b42d00c04fc964ff036164610264310377656202017006646972656374",
            #"{"attempt":1,"carried":"direct","deviceId":"d1","messageId":"6F9619FF-8B86-D011-B42D-00C04FC964FF","providerId":"p","source":"web","user":"ada"}"#
        ),
        "push-failed": (
            "6f9619ff8b86d011b42d00c04fc964ff036164610264310377656204da0609736c6f7720646f776e018080f28183898506",
            #"{"attempt":2,"deviceId":"d1","messageId":"6F9619FF-8B86-D011-B42D-00C04FC964FF","nextAttemptAt":1700000000000000,"reason":"slow down","source":"web","status":429,"user":"ada"}"#
        ),
        "push-failed-for-good": (
            "6f9619ff8b86d011b42d00c04fc964ff036164610264310377656202010774696d656f757400",
            #"{"attempt":1,"deviceId":"d1","messageId":"6F9619FF-8B86-D011-B42D-00C04FC964FF","reason":"timeout","source":"web","user":"ada"}"#
        ),
        "push-expired": (
            "6f9619ff8b86d011b42d00c04fc964ff0361646102643112",
            #"{"attempts":9,"deviceId":"d1","messageId":"6F9619FF-8B86-D011-B42D-00C04FC964FF","user":"ada"}"#
        ),
        "area-notification": (
            "6f9619ff8b86d011b42d00c04fc964ff0a6e6f7469667955736572036164610264310867656f66656e63650473686f700172086f6e5f656e747279078080f281838985060453686f700248691368747470733a2f2f652e6578616d706c652f6300077b226b223a317d0d7b226669656c6473223a5b5d7d132f61726561732f73686f702f72756c65732f7200",
            #"{"action":"notifyUser","area":"shop","areaKind":"geofence","at":1700000000000000,"body":"Hi","data":"{\"k\":1}","deviceId":"d1","message":"{\"fields\":[]}","noticeId":"6F9619FF-8B86-D011-B42D-00C04FC964FF","openURL":"https://e.example/c","responseTopic":"/areas/shop/rules/r","rule":"r","title":"Shop","transition":7,"trigger":"on_entry","user":"ada"}"#
        ),
        "server-notification": (
            "6f9619ff8b86d011b42d00c04fc964ff0c6e6f746966795365727665720361646102643106626561636f6e01620172076f6e5f65786974078080f281838985060000000000000012687474703a2f2f682e6578616d706c652f62",
            #"{"action":"notifyServer","area":"b","areaKind":"beacon","at":1700000000000000,"body":"","deviceId":"d1","message":"","noticeId":"6F9619FF-8B86-D011-B42D-00C04FC964FF","responseTopic":"","rule":"r","serverURL":"http://h.example/b","title":"","transition":7,"trigger":"on_exit","user":"ada"}"#
        ),
        "area-notification-performed": (
            "6f9619ff8b86d011b42d00c04fc964ff03616461026431010e984725c51c4bf49960e1c80e27aba000",
            #"{"deviceId":"d1","messageId":"0E984725-C51C-4BF4-9960-E1C80E27ABA0","noticeId":"6F9619FF-8B86-D011-B42D-00C04FC964FF","user":"ada"}"#
        ),
        "area-notification-dismissed": (
            "6f9619ff8b86d011b42d00c04fc964ff03616461026431",
            #"{"deviceId":"d1","noticeId":"6F9619FF-8B86-D011-B42D-00C04FC964FF","user":"ada"}"#
        ),
        "trace-logging-on": (
            "036164610264310101",
            #"{"deviceId":"d1","enabled":true,"user":"ada"}"#
        ),
        "trace-logging-namespace": (
            "0361646102643100",
            #"{"deviceId":"d1","user":"ada"}"#
        ),
        "location-request": (
            "6f9619ff8b86d011b42d00c04fc964ff0361646109726f6c6c2063616c6c",
            #"{"reason":"roll call","requestId":"6F9619FF-8B86-D011-B42D-00C04FC964FF","user":"ada"}"#
        ),
        "reply-refused": (
            "03616461026431016f9619ff8b86d011b42d00c04fc964ff0f6e6f2073756368206d6573736167652a",
            #"{"deviceId":"d1","messageId":"6F9619FF-8B86-D011-B42D-00C04FC964FF","reason":"no such message","report":42,"user":"ada"}"#
        ),
        "reply-refused-no-message": (
            "0361646102643100017201", #"{"deviceId":"d1","reason":"r","report":1,"user":"ada"}"#
        ),
        "location-request-bare": (
            "6f9619ff8b86d011b42d00c04fc964ff0361646100",
            #"{"requestId":"6F9619FF-8B86-D011-B42D-00C04FC964FF","user":"ada"}"#
        ),
        "sent": (
            "026f7001540142037372632d7b227469746c65223a224869222c22726573706f6e7365546f706963223a222f72222c2262223a5b312c325d7d022f7202036164616f9619ff8b86d011b42d00c04fc964ff03626f620e984725c51c4bf49960e1c80e27aba000",
            #"{"body":"B","payload":{"b":[1,2],"responseTopic":"/r","title":"Hi"},"recipients":[{"messageId":"6F9619FF-8B86-D011-B42D-00C04FC964FF","user":"ada"},{"messageId":"0E984725-C51C-4BF4-9960-E1C80E27ABA0","user":"bob"}],"responseTopic":"/r","sender":"op","source":"src","title":"T"}"#
        ),
        "sent-mqtt": (
            "026f7001540142002d7b227469746c65223a224869222c22726573706f6e7365546f706963223a222f72222c2262223a5b312c325d7d022f7201036164616f9619ff8b86d011b42d00c04fc964ff01025152d00f2e0000",
            #"{"body":"B","mqtt":{"alertCode":23,"flashDuration":0,"instantSender":[],"switchDelay":1000,"switchToTab":"QR"},"payload":{"b":[1,2],"responseTopic":"/r","title":"Hi"},"recipients":[{"messageId":"6F9619FF-8B86-D011-B42D-00C04FC964FF","user":"ada"}],"responseTopic":"/r","sender":"op","title":"T"}"#
        ),
        "sent-mqtt-instant": (
            "026f7001540142002d7b227469746c65223a224869222c22726573706f6e7365546f706963223a222f72222c2262223a5b312c325d7d022f7201036164616f9619ff8b86d011b42d00c04fc964ff01025152d00f2e000103616765",
            #"{"body":"B","mqtt":{"alertCode":23,"flashDuration":0,"instantSender":["age"],"switchDelay":1000,"switchToTab":"QR"},"payload":{"b":[1,2],"responseTopic":"/r","title":"Hi"},"recipients":[{"messageId":"6F9619FF-8B86-D011-B42D-00C04FC964FF","user":"ada"}],"responseTopic":"/r","sender":"op","title":"T"}"#
        ),
        "sent-no-source": (
            "026f700000002d7b227469746c65223a224869222c22726573706f6e7365546f706963223a222f72222c2262223a5b312c325d7d022f720000",
            #"{"body":"","payload":{"b":[1,2],"responseTopic":"/r","title":"Hi"},"recipients":[],"responseTopic":"/r","sender":"op","title":""}"#
        ),
        "answer": (
            "6f9619ff8b86d011b42d00c04fc964ff036164610264310550686f6e65032d7b227469746c65223a224869222c22726573706f6e7365546f706963223a222f72222c2262223a5b312c325d7d022f72",
            #"{"deviceId":"d1","deviceName":"Phone","messageId":"6F9619FF-8B86-D011-B42D-00C04FC964FF","response":{"b":[1,2],"responseTopic":"/r","title":"Hi"},"responseTopic":"/r","submitValue":-2,"user":"ada"}"#
        ),
        "answer-to-request": (
            "6f9619ff8b86d011b42d00c04fc964ff036164610264310550686f6e65d8042d7b227469746c65223a224869222c22726573706f6e7365546f706963223a222f72222c2262223a5b312c325d7d022f72056c65617665",
            #"{"deviceId":"d1","deviceName":"Phone","messageId":"6F9619FF-8B86-D011-B42D-00C04FC964FF","request":"leave","response":{"b":[1,2],"responseTopic":"/r","title":"Hi"},"responseTopic":"/r","submitValue":300,"user":"ada"}"#
        ),
        "named-payload": (
            "01702d7b227469746c65223a224869222c22726573706f6e7365546f706963223a222f72222c2262223a5b312c325d7d",
            #"{"name":"p","payload":{"b":[1,2],"responseTopic":"/r","title":"Hi"}}"#
        ),
        "request": (
            "056c65617665054c656176650341736b022f722d7b227469746c65223a224869222c22726573706f6e7365546f706963223a222f72222c2262223a5b312c325d7d",
            #"{"body":"Ask","name":"leave","payload":{"b":[1,2],"responseTopic":"/r","title":"Hi"},"responseTopic":"/r","title":"Leave"}"#
        ),
        "document": (
            "0f7263732f696d6167652f782e706e67406162616261626162616261626162616261626162616261626162616261626162616261626162616261626162616261626162616261626162616261626162616205696d61676509696d6167652f706e6780808080802003616461",
            #"{"blob":"abababababababababababababababababababababababababababababababab","contentType":"image/png","kind":"image","name":"rcs/image/x.png","size":1099511627776,"uploader":"ada"}"#
        ),
        "setting": (
            "0d7075736853697a654c696d6974010434303936",
            #"{"setting":"pushSizeLimit","value":"4096"}"#
        ),
        "setting-unset": (
            "0d7075736853697a654c696d697400",
            #"{"setting":"pushSizeLimit"}"#
        ),
        "setting-reset": (
            "0d7075736853697a654c696d6974",
            #"{"setting":"pushSizeLimit"}"#
        ),
        "topic": (
            "022f74035b315d",
            #"{"document":[1],"topic":"/t"}"#
        ),
        "token": (
            "0e984725c51c4bf49960e1c80e27aba0036164610264310261610262628080f28183898506090772656672657368",
            #"{"accessExpiresAt":"2023-11-14T22:13:20.000Z","accessTokenHash":"aa","deviceId":"d1","reason":"refresh","refreshExpiresAt":"1969-12-31T23:59:59.999Z","refreshTokenHash":"bb","sessionId":"0E984725-C51C-4BF4-9960-E1C80E27ABA0","user":"ada"}"#
        ),
        "token-no-device": (
            "0e984725c51c4bf49960e1c80e27aba003616461000261610262620000056c6f67696e",
            #"{"accessExpiresAt":"1970-01-01T00:00:00.000Z","accessTokenHash":"aa","reason":"login","refreshExpiresAt":"1970-01-01T00:00:00.000Z","refreshTokenHash":"bb","sessionId":"0E984725-C51C-4BF4-9960-E1C80E27ABA0","user":"ada"}"#
        ),
        "revoked": (
            "0e984725c51c4bf49960e1c80e27aba0036164610264310c726566726573685265757365",
            #"{"deviceId":"d1","reason":"refreshReuse","sessionId":"0E984725-C51C-4BF4-9960-E1C80E27ABA0","user":"ada"}"#
        ),
        "revoked-no-device": (
            "0e984725c51c4bf49960e1c80e27aba00361646100066c6f676f7574",
            #"{"reason":"logout","sessionId":"0E984725-C51C-4BF4-9960-E1C80E27ABA0","user":"ada"}"#
        ),
        "revoked-user-removed": (
            "0e984725c51c4bf49960e1c80e27aba003616461000b7573657252656d6f766564",
            #"{"reason":"userRemoved","sessionId":"0E984725-C51C-4BF4-9960-E1C80E27ABA0","user":"ada"}"#
        ),
        "login-failed": (
            "036164610264310d77726f6e6750617373776f7264093132372e302e302e31",
            #"{"clientAddress":"127.0.0.1","deviceId":"d1","reason":"wrongPassword","user":"ada"}"#
        ),
        "login-failed-bare": (
            "03616461000a6e6f50617373776f7264",
            #"{"reason":"noPassword","user":"ada"}"#
        ),
        "area-removed": (
            "0473686f700867656f66656e6365",
            #"{"id":"shop","kind":"geofence"}"#
        ),
        "area-counts-changed": (
            "06626561636f6e026231027231086f6e5f656e747279016702040101010a0112",
            #"{"area":"b1","group":"g","kind":"beacon","new":{"maxEvents":5,"maxGroupEvents":9},"old":{"maxEvents":2,"minEvents":1},"rule":"r1","trigger":"on_entry"}"#
        ),
        "location": (
            "036164610264318fc2f5285c6f4840a4703d0ad7a302c00100000000000029408280f28183898506",
            #"{"accuracy":12.5,"at":1700000000000001,"deviceId":"d1","latitude":48.87,"longitude":-2.33,"user":"ada"}"#
        ),
        "location-no-accuracy": (
            "03616461026431000000000000000000000000000000000001",
            #"{"at":-1,"deviceId":"d1","latitude":0,"longitude":0,"user":"ada"}"#
        ),
        "beacon": (
            "036164610264312445324335364442352d444646422d343844322d423036302d443046354137313039364530feff07008b0175046e6561725402026231026232",
            #"{"at":42,"deviceId":"d1","major":65535,"measuredPower":-59,"minor":0,"proximity":"near","proximityUUID":"E2C56DB5-DFFB-48D2-B060-D0F5A71096E0","regions":["b1","b2"],"rssi":-70,"user":"ada"}"#
        ),
        "transition": (
            "036164610264310473686f70086f6e5f656e747279086c6f636174696f6e0e018fc2f5285c6f4840a4703d0ad7a302400002027231c601027232010867656f66656e6365",
            #"{"area":"shop","at":7,"deviceId":"d1","kind":"geofence","latches":[{"dueAt":99,"rule":"r1"},{"dueAt":-1,"rule":"r2"}],"latitude":48.87,"longitude":2.33,"source":"location","trigger":"on_entry","user":"ada"}"#
        ),
        "transition-beacon": (
            "03616461026431026231076f6e5f6578697406626561636f6e0e00036661720000",
            #"{"area":"b1","at":7,"deviceId":"d1","kind":"","latches":[],"proximity":"far","source":"beacon","trigger":"on_exit","user":"ada"}"#
        ),
        "evaluated": (
            "036164610264310473686f70027231086f6e5f656e747279ac021201086e6f746966696564000167060a323032362d31312d323302016f9619ff8b86d011b42d00c04fc964ff08687474703a2f2f68066e6f74696679010867656f66656e6365",
            #"{"area":"shop","areaCount":0,"at":9,"awaitingServer":true,"dailyCount":1,"day":"2026-11-23","decision":"notify","deviceId":"d1","fired":true,"group":"g","groupCount":3,"kind":"geofence","messageId":"6F9619FF-8B86-D011-B42D-00C04FC964FF","reason":"notified","rule":"r1","serverURL":"http://h","transition":300,"trigger":"on_entry","user":"ada"}"#
        ),
        "evaluated-bare": (
            "036164610264310473686f70027231076f6e5f657869740112000001000100010000000000",
            #"{"area":"shop","at":9,"awaitingServer":false,"deviceId":"d1","fired":false,"kind":"","reason":"","rule":"r1","transition":1,"trigger":"on_exit","user":"ada"}"#
        ),
        "geotrigger-removed": (
            "0167",
            #"{"id":"g"}"#
        ),
        "geotrigger-monitor-started": (
            "0167",
            #"{"id":"g"}"#
        ),
        "geotrigger-monitor-stopped": (
            "0167",
            #"{"id":"g"}"#
        ),
        "geotrigger-notified": (
            "036164610264310167016607656e74657265640a000000000000f83f000000000000f8bf010473656e74016d0201610162077b226b223a317d016f9619ff8b86d011b42d00c04fc964ff",
            #"{"actions":["a","b"],"at":5,"deviceId":"d1","fence":"f","fired":true,"geotrigger":"g","latitude":1.5,"longitude":-1.5,"message":"m","messageId":"6F9619FF-8B86-D011-B42D-00C04FC964FF","notificationType":"entered","properties":"{\"k\":1}","reason":"sent","user":"ada"}"#
        ),
        "geotrigger-notified-bare": (
            "0361646102643101670166066578697465640a0000000000000000000000000000000000086e6f206d617463680000027b7d00",
            #"{"actions":[],"at":5,"deviceId":"d1","fence":"f","fired":false,"geotrigger":"g","latitude":0,"longitude":0,"message":"","notificationType":"exited","properties":"{}","reason":"no match","user":"ada"}"#
        ),
    ]

    static func hex(_ event: some DomainEvent) -> String {
        var writer = ByteWriter()
        event.encode(into: &writer)
        return writer.bytes.map { String(format: "%02x", $0) }.joined()
    }

    static func json(_ event: some DomainEvent) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(event), as: UTF8.self)
    }

    static func bytes(_ hex: String) -> [UInt8] {
        stride(from: 0, to: hex.count, by: 2).map { offset in
            let start = hex.index(hex.startIndex, offsetBy: offset)
            return UInt8(hex[start..<hex.index(start, offsetBy: 2)], radix: 16)!
        }
    }

    /// Decodes the pinned bytes as the sample's type, then writes them again.
    static func roundTrip<E: DomainEvent>(_ sample: E, _ bytes: [UInt8]) throws -> (hex: String, json: String) {
        let decoded = try bytes.withUnsafeBytes { buffer in
            var reader = ByteReader(buffer)
            let event = try E(from: &reader)
            #expect(reader.remaining == 0, "\(E.type) left bytes unread")
            return event
        }
        return (hex(decoded), try json(decoded))
    }

    @Test func eachEventIsWrittenAsEarlierReleasesWroteIt() {
        for (name, event) in Self.samples { #expect(Self.hex(event) == Self.pinned[name]?.bytes, "\(name)") }
    }

    @Test func bytesEarlierReleasesWroteReadBackAsTheSameEvent() throws {
        for (name, event) in Self.samples {
            let pinned = try #require(Self.pinned[name])
            let again = try Self.roundTrip(event, Self.bytes(pinned.bytes))
            #expect(again.hex == pinned.bytes, "\(name)")
            #expect(again.json == pinned.json, "\(name)")
        }
    }

    @Test func theAuditShowsEachEventAsBefore() throws {
        for (name, event) in Self.samples { #expect(try Self.json(event) == Self.pinned[name]?.json, "\(name)") }
    }

    @Test func areasAndGeotriggersAreStoredAsTheirSortedJSON() throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let area = Area(
            id: "shop", region: .geofence(latitude: 48.87, longitude: 2.33, radius: 50), name: "Shop",
            groupId: "g", timeZone: "Europe/Paris", rules: [])
        let geotrigger = Geotrigger(id: "g", areas: ["shop"], messageExpression: "\"a\"")
        var expected = ByteWriter()
        expected.write(bytes: try encoder.encode(area))
        #expect(Self.hex(AreaDefined(area: area)) == Self.hex(expected.bytes))
        expected = ByteWriter()
        expected.write(bytes: try encoder.encode(geotrigger))
        #expect(Self.hex(GeotriggerDefined(geotrigger: geotrigger)) == Self.hex(expected.bytes))
        let area2 = try Self.roundTrip(AreaDefined(area: area), Self.bytes(Self.hex(AreaDefined(area: area))))
        #expect(area2.json == (try Self.json(AreaDefined(area: area))))
    }

    static func hex(_ bytes: [UInt8]) -> String { bytes.map { String(format: "%02x", $0) }.joined() }

    @Test func theCatalogueKnowsEverySampledType() {
        let sampled = Set(Self.samples.map { type(of: $0.event).type })
        let known = Set(EventCatalogue.all.map { $0.type })
        #expect(known.subtracting(sampled) == ["AreaDefined", "GeotriggerDefined"])
    }
}

/// Logs written by 0.1.0 hold `PushTargetRegistered` of schema 1; the release's upcaster lifts them with no publish
/// topic.
@Suite struct PushTargetRegisteredUpcastTests {
    @Test func aSchemaOneBodyReadsAsADeviceWithNoPublishTopic() throws {
        let recorded = RecordedEvent(
            position: 3, id: UUID(), namespace: "default", stream: "devices/ada", version: 1,
            type: PushTargetRegistered.type, schemaVersion: 1, recordedAt: 0, actor: "cli", causationId: nil,
            correlationId: nil,
            body: EventBody(format: .binary, bytes: EventBytesTests.bytes("036164610264310550686f6e650366636d0174")))
        #expect(throws: StoreError.self) { try PushTargetRegistered.decode(recorded) }
        let lifted = Migrations.upcasters.upcast(recorded)
        #expect(lifted.schemaVersion == PushTargetRegistered.schemaVersion)
        let event = try #require(try PushTargetRegistered.decode(lifted))
        #expect(
            event
                == PushTargetRegistered(
                    user: "ada", deviceId: "d1", deviceName: "Phone", platform: .fcm, token: "t", publishTopic: nil))
    }
}

/// Logs written by 0.1.0 hold `PushTargetUnregistered` of schema 1; the release's upcaster lifts them.
@Suite struct PushTargetUnregisteredUpcastTests {
    @Test func aSchemaOneBodyReadsAsADeviceRemovedByItsUserWithNoReason() throws {
        let recorded = RecordedEvent(
            position: 7, id: UUID(), namespace: "default", stream: "devices/ada", version: 2,
            type: PushTargetUnregistered.type, schemaVersion: 1, recordedAt: 0, actor: "cli", causationId: nil,
            correlationId: nil, body: EventBody(format: .binary, bytes: EventBytesTests.bytes("03616461026431")))
        let lifted = Migrations.upcasters.upcast(recorded)
        #expect(lifted.schemaVersion == PushTargetUnregistered.schemaVersion)
        let event = try #require(try PushTargetUnregistered.decode(lifted))
        #expect(event == PushTargetUnregistered(user: "ada", deviceId: "d1", reason: nil))
    }
}
