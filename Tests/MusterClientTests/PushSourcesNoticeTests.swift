import Foundation
import MusterWire
import Testing

@testable import MusterClient

/// What the server now sends under `muster` — MusterWire's `PushNotice` — as the client reads it: the whole message
/// when the push carried it (no fetch), the id to fetch otherwise, and an operator's test push.
@Suite struct PushSourcesNoticeTests {
    static let message = Message(
        messageId: UUID(uuidString: "3f2b8c1e-9a4d-4e6f-8b7a-1c2d3e4f5a6b")!, title: "Example", body: "Pick a colour",
        sentAt: Date(timeIntervalSince1970: 1_780_000_000), sender: "ada", source: "browsers",
        payload: ["responseTopic": "/colours", "fields": []])

    /// A client whose server is never reached: a fetch would fail with a transport error.
    static var offline: MusterClient { MusterClient(serverURL: URL(string: "http://127.0.0.1:1")!) }

    /// The notice as JSON text (FCM) and as the dictionary APNs and Web Push hand the app.
    static func forms(_ notice: PushNotice) throws -> [Any] {
        let json = try MusterJSON.encoder().encode(notice)
        return [String(decoding: json, as: UTF8.self), try JSONSerialization.jsonObject(with: json)]
    }

    @Test func aDirectPushGivesTheMessageWithoutFetching() async throws {
        let notice = PushNotice(
            kind: .message, messageId: Self.message.messageId, title: "Example", body: "Pick a colour",
            message: Self.message)
        for muster in try Self.forms(notice) {
            let push = MusterPush(userInfo: ["muster": muster])
            #expect(
                push
                    == .message(
                        messageId: Self.message.messageId, title: "Example", body: "Pick a colour",
                        message: Self.message))
            let outcome = try await Self.offline.processPushNotification(["muster": muster])
            #expect(outcome == .message(Self.message))
        }
    }

    @Test func anIndirectPushNamesTheMessageToFetch() async throws {
        let notice = PushNotice(kind: .message, messageId: Self.message.messageId, title: "T", body: "B")
        for muster in try Self.forms(notice) {
            #expect(
                MusterPush(userInfo: ["muster": muster])
                    == .message(messageId: Self.message.messageId, title: "T", body: "B", message: nil))
            // The fetch is tried, and fails here: the server is not reached.
            await #expect(throws: MusterClientError.self) {
                _ = try await Self.offline.processPushNotification(["muster": muster])
            }
        }
    }

    @Test func aTestPushIsHandledWithNothingToFetch() async throws {
        let notice = PushNotice(
            kind: .test, title: "Muster test", body: "A test notification through push source browsers")
        for muster in try Self.forms(notice) {
            #expect(
                MusterPush(userInfo: ["muster": muster])
                    == .test(title: "Muster test", body: "A test notification through push source browsers"))
            let outcome = try await Self.offline.processPushNotification(["aps": ["alert": "x"], "muster": muster])
            #expect(outcome == .test(title: "Muster test", body: "A test notification through push source browsers"))
            #expect(outcome.handled)
        }
    }

    @Test func aMessageNoticeWithNeitherIdNorMessageIsNotMusters() throws {
        for muster in try Self.forms(PushNotice(kind: .message, title: "T")) {
            #expect(MusterPush(userInfo: ["muster": muster]) == nil)
        }
    }
}
