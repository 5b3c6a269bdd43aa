import EventLog
import Foundation
import MQTTConnect
import Migrations
import Testing

@testable import Muster

/// Logs written before the MQTT bridge hold `PayloadSent` of schema 1; the release's upcaster lifts them with no
/// DialogMessage settings, and a send's settings are kept with it.
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

    @Test func storedSettingsReadBackAsTheSendersSettings() throws {
        let settings = try DialogSenderSettings(switchToTab: "Camera", switchDelay: 500, alertCode: 7, flashDuration: 0)
        let stored = try #require(PayloadSent.DialogSettings(settings))
        #expect(stored.switchToTab == "Camera")
        #expect(stored.senderSettings == settings)
        #expect(PayloadSent.DialogSettings(.none) == nil, "no settings are stored as none")
    }
}
