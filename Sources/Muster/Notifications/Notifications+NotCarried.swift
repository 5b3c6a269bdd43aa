import EventLog
import Forms
import Foundation
import MQTTConnect
import MusterWire

extension Notifications {
    /// What the recipients' MQTT devices cannot be shown of `payload`: for each recipient, each of their `mqtt`
    /// devices and each field its DialogMessage leaves out (`DialogMapping`), in recipient, device and field order.
    static func notCarried(
        _ payload: Payload, to recipients: [PayloadSent.Recipient], namespace: String,
        devices: ProjectionView<MQTTDevicesProjection>
    ) throws -> [SentNotification.NotCarried] {
        var mapping: DialogMapping?
        var reports: [SentNotification.NotCarried] = []
        for recipient in recipients {
            let owned = try devices.devices(user: recipient.user, namespace: namespace)
            guard !owned.isEmpty else { continue }
            // Every device is shown the same DialogMessage; only the payload decides what it leaves out.
            let uncarried: [UncarriedField]
            if let mapping {
                uncarried = mapping.uncarried
            } else {
                let made = DialogMapping(payload: payload, title: nil, body: nil, messageID: recipient.messageId)
                mapping = made
                uncarried = made.uncarried
            }
            for device in owned {
                reports += uncarried.map { field in
                    SentNotification.NotCarried(
                        user: recipient.user, deviceId: device.deviceId,
                        field: SentNotification.FieldReference(index: field.index, id: field.id, type: field.type),
                        reason: field.reason)
                }
            }
        }
        return reports
    }
}

extension Notifications {
    /// Refuses a send whose `InstantSender` names a field that is not an input field of the DialogMessage (an
    /// unknown id, a choice, a button, a field the DialogMessage cannot carry).
    static func checkInstantSender(_ dialog: DialogSenderSettings, _ payload: Payload) throws {
        guard !dialog.instantSender.isEmpty else { return }
        let inputs = DialogMapping(payload: payload, title: nil, body: nil, messageID: UUID()).inputKeys
        for id in dialog.instantSender where !inputs.contains(id) {
            let known = inputs.isEmpty ? "the payload has none" : "the payload's are \(inputs.joined(separator: ", "))"
            throw MusterError(
                .invalidArgument,
                "InstantSender names \(String(reflecting: id)), which is not an input field the DialogMessage carries "
                    + "(\(known)); nothing was sent",
                field: "mqtt.InstantSender")
        }
    }
}

extension ProjectionView<MQTTDevicesProjection> {
    /// The `mqtt` devices of `user`, by device id.
    func devices(user: String, namespace: String) throws -> [MQTTDevice] {
        var devices: [MQTTDevice] = []
        try state.scan("devices", prefix: Key.joined(namespace, user)) { _, value in
            var reader = ByteReader(value)
            if let device = MQTTDevice(try PushTargetRegistered(from: &reader), namespace: namespace) {
                devices.append(device)
            }
            return true
        }
        return devices
    }
}
