import Muster

extension MQTTBridge {
    /// Keeps the subscriptions what the devices need, one pass per request (`subscriptionRequests`): subscribed to
    /// every topic a device publishes on, and unsubscribed from a topic none publishes on any more (a device
    /// removed, or moved by a receipt) — else the bridge would go on receiving there, acknowledging and refusing
    /// every message.
    func keepSubscriptions() async {
        for await _ in subscriptionRequests.stream {
            guard let client = client.withLock({ $0 }), client.state.isConnected else { continue }
            // Subscribed first, wanted second: a topic subscribed for a settings message is wanted before it is
            // subscribed, so it is never taken for one no device needs.
            let subscribed = Set(client.subscriptions)
            let wanted: Set<String>
            do {
                wanted = try wantedTopics()
            } catch {
                logger.error("MQTT bridge cannot read the devices to keep its subscriptions: \(error)")
                continue
            }
            try? await subscribe(Array(wanted.subtracting(subscribed)))
            let unwanted = subscribed.subtracting(wanted).sorted()
            guard !unwanted.isEmpty else { continue }
            do {
                try await client.unsubscribe(unwanted)
                logger.info(
                    "MQTT bridge unsubscribed from \(unwanted.joined(separator: ", ")): no device publishes there")
            } catch {
                // Tried again on the next request (the next change, or the next connect).
                logger.error("MQTT bridge could not unsubscribe from \(unwanted.joined(separator: ", ")): \(error)")
            }
            // Wanted again meanwhile: a device registered there, or a settings message moving one there.
            if let again = try? wantedTopics().intersection(unwanted), !again.isEmpty {
                try? await subscribe(Array(again))
            }
        }
    }

    /// The topics to listen on: every device's publish topic as the log has it now (ahead of the routes; a device
    /// moved is on one of its two topics in every snapshot), and the new publish topics settings messages await
    /// their receipts on.
    func wantedTopics() throws -> Set<String> {
        Set(try devices.publishTopics()).union(pendingMoves.withLock { Set($0.keys) })
    }
}
