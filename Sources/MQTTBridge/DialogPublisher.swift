import Forms
import Foundation
import MQTT
import MQTTConnect
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
            messageID: message.messageId)
        let bytes = DeviceMessage(dialogMessage: mapping.message).jsonData()
        return await bridge.publish(topic: push.token, payload: Array(bytes))
    }

    func shutdown() async throws {}
}
