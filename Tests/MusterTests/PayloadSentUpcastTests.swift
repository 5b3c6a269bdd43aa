import EventLog
import Foundation
import MQTTConnect
import Migrations
import Testing

@testable import Muster

/// Logs written before the MQTT bridge hold `PayloadSent` of schema 1, and before instant fields of schema 2; the
/// release's upcasters lift them with no DialogMessage settings (no instant fields), and a send's settings are kept
/// with it.
@Suite struct PayloadSentUpcastTests {
    @Test func aSchemaOneBodyReadsAsASendWithNoMQTTSettings() throws {
        let recorded = RecordedEvent(
            position: 5, id: UUID(), namespace: "default", stream: "send/x", version: 1, type: PayloadSent.type,
            schemaVersion: 1, recordedAt: 0, actor: "cli", causationId: nil, correlationId: nil,
            body: EventBody(
                format: .binary,
                bytes: EventBytesTests.bytes(
                    "026f700000002d7b227469746c65223a224869222c22726573706f6e7365546f706963223a222f72222c2262223a5b312c325d7d022f7200"
                )))
        #expect(throws: StoreError.self) { try PayloadSent.decode(recorded) }
        let lifted = Migrations.upcasters.upcast(recorded)
        #expect(lifted.schemaVersion == PayloadSent.schemaVersion)
        let event = try #require(try PayloadSent.decode(lifted))
        #expect(event.mqtt == nil)
        #expect(event.sender == "op")
        #expect(event.responseTopic == "/r")
        #expect(event.payload == EventBytesTests.payload)
    }

    @Test func aSchemaTwoBodyReadsAsASendWithNoInstantFields() throws {
        func recorded(_ hex: String) -> RecordedEvent {
            RecordedEvent(
                position: 5, id: UUID(), namespace: "default", stream: "send/x", version: 1, type: PayloadSent.type,
                schemaVersion: 2, recordedAt: 0, actor: "cli", causationId: nil, correlationId: nil,
                body: EventBody(format: .binary, bytes: EventBytesTests.bytes(hex)))
        }
        // The sample's bytes as schema 2 wrote them: the settings end with `FlashDuration`.
        let withSettings = recorded(
            "026f7001540142002d7b227469746c65223a224869222c22726573706f6e7365546f706963223a222f72222c2262223a5b312c325d7d022f7201036164616f9619ff8b86d011b42d00c04fc964ff01025152d00f2e00"
        )
        #expect(throws: StoreError.self) { try PayloadSent.decode(withSettings) }
        let lifted = try #require(try PayloadSent.decode(Migrations.upcasters.upcast(withSettings)))
        #expect(lifted.mqtt == .init(switchToTab: "QR", switchDelay: 1000, alertCode: 23, flashDuration: 0))
        #expect(lifted.mqtt?.instantSender == [])
        let without = recorded(
            "026f700000002d7b227469746c65223a224869222c22726573706f6e7365546f706963223a222f72222c2262223a5b312c325d7d022f720000"
        )
        let bare = try #require(try PayloadSent.decode(Migrations.upcasters.upcast(without)))
        #expect(bare.mqtt == nil && bare.recipients.isEmpty && bare.sender == "op")
    }

    @Test func storedSettingsReadBackAsTheSendersSettings() throws {
        let settings = try DialogSenderSettings(
            switchToTab: "Camera", switchDelay: 500, alertCode: 7, flashDuration: 0, instantSender: ["age"])
        let stored = try #require(PayloadSent.DialogSettings(settings))
        #expect(stored.switchToTab == "Camera" && stored.instantSender == ["age"])
        #expect(stored.senderSettings == settings)
        #expect(PayloadSent.DialogSettings(.none) == nil, "no settings are stored as none")
    }
}
