import MQTTConnect
import Muster

extension MQTTBridge {
    /// Publishes a settings message to a device (`muster mqtt settings`) and waits for its receipt; nil when none
    /// came in time. Throws `MusterError` for an unknown device, settings it cannot take or a topic of another device
    /// (`SettingsTopicCheck`); `NotPublished` at once when the bridge is not connected, or when the broker did not
    /// take the message. Nothing is sent when it throws before publishing.
    ///
    /// A new `PublishTopic` is subscribed before the message is published and listened on while the receipt is
    /// awaited: the app applies the settings first, so it sends the receipt there, and that receipt moves the device.
    public func sendSettings(_ arguments: [String], to deviceId: String, user: String, namespace: String) async throws
        -> DeviceSettings?
    {
        guard
            let device = try devices.devices(namespace: namespace).first(where: {
                $0.deviceId == deviceId && $0.user == user
            })
        else {
            throw MusterError(
                .notFound,
                "user \(user) has no MQTT device \(deviceId) in namespace \(namespace) (muster devices list --user \(user))",
                field: "device")
        }
        let settings: DeviceSettings
        do {
            settings = try DeviceSettings(arguments: arguments)
        } catch {
            throw MusterError(.invalidArgument, "\(error)", field: "settings")
        }
        try SettingsTopicCheck(devices: devices.devices()).check(settings, for: device)
        let state = client.withLock { $0 }?.state
        guard let state, state.isConnected else {
            counters.add(\.publishFailures)
            throw NotPublished(
                "the MQTT bridge is not connected to the broker at \(options.connection.address) (\(state.map { "\($0)" } ?? "connecting")); "
                    + "nothing was sent: try again once muster mqtt status shows it connected")
        }
        let move = settings.publishTopic.flatMap { $0 == device.publishTopic ? nil : $0 }
        if let move { try await beginMove(of: device, to: move) }
        let ticket = receipts.expect(settings, from: device)
        let outcome = await publish(
            topic: device.subscribeTopic, payload: Array(DeviceMessage(settings: settings).jsonData()))
        guard case .delivered = outcome else {
            receipts.cancel(ticket)
            if let move { endMove(to: move) }
            throw NotPublished(outcome: outcome)
        }
        let receipt = await receipts.wait(for: ticket, within: options.receiptTimeout)
        if let move { endMove(to: move) }
        return receipt
    }

    /// Listens on `topic` for `device`, whose receipt will come there; refused while another command gives it to
    /// another device.
    private func beginMove(of device: MQTTDevice, to topic: String) async throws {
        let holder = pendingMoves.withLock { moves -> MQTTDevice? in
            if let other = moves[topic], !other.device.isSameDevice(as: device) { return other.device }
            moves[topic, default: PendingMove(device: device)].commands += 1
            return nil
        }
        if let holder {
            let name =
                holder.namespace == device.namespace
                ? "device \(String(reflecting: holder.deviceId)) of user \(holder.user)"
                : "a device of another namespace"
            throw MusterError(
                .conflict,
                "PublishTopic=\(topic) is being given to \(name) by another mqtt settings command; each MQTT device "
                    + "needs topics of its own: give one no other device uses; nothing was sent",
                field: "settings")
        }
        do {
            try await subscribe([topic])
        } catch {
            endMove(to: topic)
            throw NotPublished(
                "the bridge could not subscribe to the new PublishTopic \(topic), where the phone will send its "
                    + "receipt: \(error); nothing was sent")
        }
    }

    /// The command moving a device to `topic` ended; once none does, the topic stays subscribed only when a device
    /// publishes there now (the receipt came and moved it).
    private func endMove(to topic: String) {
        pendingMoves.withLock { moves in
            guard var move = moves[topic] else { return }
            move.commands -= 1
            moves[topic] = move.commands > 0 ? move : nil
        }
        subscriptionRequests.continuation.yield()
    }
}

/// A device's new publish topic, given by settings messages still awaiting their receipts.
struct PendingMove: Sendable {
    var device: MQTTDevice
    /// The commands awaiting a receipt there.
    var commands = 0
}
