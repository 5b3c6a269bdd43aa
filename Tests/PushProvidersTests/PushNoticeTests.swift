import Foundation
import MusterWire
import PushProviders
import Testing

/// What a push carries, as the app reads it under the key `muster`.
@Suite struct PushNoticeTests {
    @Test func anIndirectNoticeCarriesTheMessageIdTitleAndBodyOnly() throws {
        let id = UUID()
        let notice = PushNotice(kind: .message, messageId: id, title: "Shift", body: "Can you come?")
        let json = try JSONSerialization.jsonObject(with: MusterJSON.encoder().encode(notice)) as? [String: Any]
        #expect(json?["kind"] as? String == "message")
        #expect(json?["messageId"] as? String == id.uuidString)
        #expect(json?["title"] as? String == "Shift")
        #expect(json?["message"] == nil)
    }

    @Test func aDirectNoticeCarriesTheWholeMessageAndReadsBack() throws {
        let message = Message(
            messageId: UUID(), title: "Shift", body: "Can you come?",
            sentAt: Date(timeIntervalSince1970: 1_700_000_000),
            sender: "ops", payload: .object(["responseTopic": .string("/shifts"), "fields": .array([])]))
        let notice = PushNotice(
            kind: .message, messageId: message.messageId, title: message.title, body: message.body, message: message)
        let decoded = try MusterJSON.decoder().decode(PushNotice.self, from: MusterJSON.encoder().encode(notice))
        #expect(decoded == notice)
    }

    @Test func aConfigurationErrorNamesItsArgumentFirst() {
        let error = PushConfigurationError("--key-file", "expected a PKCS#8 P-256 private key in PEM")
        #expect(error.description == "--key-file: expected a PKCS#8 P-256 private key in PEM")
    }
}
