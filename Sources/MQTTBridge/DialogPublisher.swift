import Forms
import Foundation
import MQTT
import MQTTConnect
import Muster
import MusterWire
import PushProviders

/// Delivers messages to MQTT devices for the delivery service: the push's message as a `DialogMessage`, published
/// with QoS 1 on the device's subscribe topic (the push token); delivered when the broker acknowledged it.
struct DialogPublisher: PushProvider {
    let bridge: MQTTBridge

    /// A broker takes far more than a push service: the whole message always goes.
    func fits(_ push: Push) -> Bool { true }

    func send(_ push: Push) async -> PushOutcome {
        guard let notice = try? MusterJSON.decoder().decode(PushNotice.self, from: Data(push.notice)),
            let message = notice.message
        else {
            return .rejected(status: nil, reason: "the push carries no message to show as a DialogMessage")
        }
        let mapping = DialogMapping(
            payload: Payload(json: message.payload), title: message.title, body: message.body,
            messageID: message.messageId, settings: senderSettings(message.messageId, token: push.token))
        let bytes = DeviceMessage(dialogMessage: mapping.message).jsonData()
        return await bridge.publish(topic: push.token, payload: Array(bytes))
    }

    /// What the sender set on the DialogMessage: read from the send, found through the device subscribed on
    /// `token`; none when no device or message is found (the message is still shown).
    private func senderSettings(_ messageId: UUID, token: String) -> DialogSenderSettings {
        let notifications = Notifications(log: bridge.log)
        for device in bridge.devices(subscribedTo: token) {
            let settings = try? notifications.dialogSettings(
                messageId: messageId, user: device.user, namespace: device.namespace)
            if let settings, settings != .none { return settings }
        }
        return .none
    }

    func shutdown() async throws {}
}
