import Foundation
import Testing

@testable import MusterClient

/// A push's `userInfo` and what the client should make of it.
struct PushCase: @unchecked Sendable, CustomTestStringConvertible {
    // `userInfo` is `[AnyHashable: Any]` as the platform delivers it; the cases are constants, never mutated.
    var name: String
    var userInfo: [AnyHashable: Any]
    var expected: MusterPush?

    var testDescription: String { name }
}

private let messageId = UUID(uuidString: "3f2b8c1e-9a4d-4e6f-8b7a-1c2d3e4f5a6b")!

let pushCases: [PushCase] = [
    PushCase(
        name: "APNs message",
        userInfo: [
            "aps": ["alert": ["title": "Example", "body": "Pick a colour"]],
            "muster": [
                "kind": "message", "messageId": "3f2b8c1e-9a4d-4e6f-8b7a-1c2d3e4f5a6b", "title": "Example",
                "body": "Pick a colour",
            ],
        ],
        expected: .message(messageId: messageId, title: "Example", body: "Pick a colour")),
    PushCase(
        name: "uppercase message id",
        userInfo: ["muster": ["kind": "message", "messageId": "3F2B8C1E-9A4D-4E6F-8B7A-1C2D3E4F5A6B"]],
        expected: .message(messageId: messageId, title: nil, body: nil)),
    PushCase(
        name: "AnyHashable-keyed muster member",
        userInfo: [AnyHashable("muster"): [AnyHashable("kind"): "locationRequest"] as [AnyHashable: Any]],
        expected: .locationRequest),
    PushCase(
        name: "location request", userInfo: ["muster": ["kind": "locationRequest"]], expected: .locationRequest),
    PushCase(
        name: "FCM data message: muster as JSON text",
        userInfo: [
            "muster": #"{"kind":"message","messageId":"3f2b8c1e-9a4d-4e6f-8b7a-1c2d3e4f5a6b","title":"T","body":"B"}"#
        ],
        expected: .message(messageId: messageId, title: "T", body: "B")),
    PushCase(
        name: "FCM location request as JSON text", userInfo: ["muster": #"{"kind":"locationRequest"}"#],
        expected: .locationRequest),
    PushCase(
        name: "area notice",
        userInfo: [
            "aps": ["alert": ["title": "Shop", "body": "Welcome!"]],
            "muster": [
                "kind": "areaNotice", "noticeId": "3f2b8c1e-9a4d-4e6f-8b7a-1c2d3e4f5a6b", "deviceId": "phone",
                "title": "Shop", "body": "Welcome!",
            ],
        ],
        expected: .areaNotice(noticeId: messageId, deviceId: "phone", title: "Shop", body: "Welcome!")),
    PushCase(
        name: "silent area notice as JSON text",
        userInfo: [
            "muster": #"{"kind":"areaNotice","noticeId":"3f2b8c1e-9a4d-4e6f-8b7a-1c2d3e4f5a6b","deviceId":"p"}"#
        ],
        expected: .areaNotice(noticeId: messageId, deviceId: "p", title: nil, body: nil)),
    PushCase(
        name: "area notice without its device",
        userInfo: ["muster": ["kind": "areaNotice", "noticeId": "3f2b8c1e-9a4d-4e6f-8b7a-1c2d3e4f5a6b"]],
        expected: nil),
    PushCase(
        name: "message withdrawn",
        userInfo: [
            "aps": ["alert": ["title": "Example", "body": "Withdrawn by its sender: there is nothing to answer."]],
            "muster": ["kind": "withdrawn", "messageId": "3f2b8c1e-9a4d-4e6f-8b7a-1c2d3e4f5a6b", "title": "Example"],
        ],
        expected: .withdrawn(messageId: messageId, title: "Example")),
    PushCase(name: "withdrawn without its message", userInfo: ["muster": ["kind": "withdrawn"]], expected: nil),
    PushCase(name: "another app's push", userInfo: ["aps": ["alert": "Hello"], "custom": 1], expected: nil),
    PushCase(name: "empty userInfo", userInfo: [:], expected: nil),
    PushCase(name: "unknown kind", userInfo: ["muster": ["kind": "somethingNew"]], expected: nil),
    PushCase(name: "no kind", userInfo: ["muster": ["messageId": messageId.uuidString]], expected: nil),
    PushCase(name: "kind not a string", userInfo: ["muster": ["kind": 1]], expected: nil),
    PushCase(name: "message without id", userInfo: ["muster": ["kind": "message"]], expected: nil),
    PushCase(
        name: "message id not a UUID", userInfo: ["muster": ["kind": "message", "messageId": "42"]], expected: nil),
    PushCase(name: "muster is a number", userInfo: ["muster": 1], expected: nil),
    PushCase(name: "muster is text but not JSON", userInfo: ["muster": "message"], expected: nil),
    PushCase(name: "muster is a JSON array", userInfo: ["muster": "[1,2]"], expected: nil),
    PushCase(
        name: "key is case-sensitive", userInfo: ["Muster": ["kind": "locationRequest"]], expected: nil),
]

@Suite struct MusterPushTests {
    @Test(arguments: pushCases)
    func recognition(_ testCase: PushCase) {
        #expect(MusterPush(userInfo: testCase.userInfo) == testCase.expected)
    }

    @Test func anotherAppsPushIsNotMusters() async throws {
        let client = MusterClient(serverURL: URL(string: "http://127.0.0.1:1")!)
        let outcome = try await client.processPushNotification(["aps": ["alert": "Hi"]])
        #expect(outcome == .notMuster)
        #expect(!outcome.handled)
    }

    @Test func aWithdrawalNamesTheMessageToDropWithoutAskingTheServer() async throws {
        // No server listens at port 1: the outcome comes from the push alone.
        let client = MusterClient(serverURL: URL(string: "http://127.0.0.1:1")!)
        let outcome = try await client.processPushNotification(
            ["muster": #"{"kind":"withdrawn","messageId":"3f2b8c1e-9a4d-4e6f-8b7a-1c2d3e4f5a6b"}"#])
        #expect(outcome == .withdrawn(messageId) && outcome.handled)
    }

    @Test func aLocationRequestWithoutProviderAsksTheApp() async throws {
        let client = MusterClient(serverURL: URL(string: "http://127.0.0.1:1")!)
        let outcome = try await client.processPushNotification(["muster": ["kind": "locationRequest"]])
        #expect(outcome == .locationRequested)
        #expect(outcome.handled)
    }

    @Test func aProviderThatCannotLocateGivesLocationUnavailable() async {
        struct NoFix: Error {}
        let client = MusterClient(serverURL: URL(string: "http://127.0.0.1:1")!)
        let provider = LocationProvider(deviceId: "phone-1") { throw NoFix() }
        await #expect(throws: MusterClientError.self) {
            _ = try await client.processPushNotification(
                ["muster": ["kind": "locationRequest"]], locationProvider: provider)
        }
        #expect(client.session.error?.code == .locationUnavailable)
        #expect(client.session.errorStr.contains("location"))
    }
}
