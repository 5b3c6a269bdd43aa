import EventLog

extension MQTTDevices {
    /// A device the bridge starts or stops listening to.
    public struct Change: Sendable, Hashable {
        public enum Kind: Sendable, Hashable {
            /// Registered (or there at the start): subscribe to its publish topic.
            case registered
            /// Unregistered, or registered again with other topics or another platform: unsubscribe from its
            /// publish topic (a `.registered` follows for its new topics).
            case removed
        }
        public var kind: Kind
        public var device: MQTTDevice
        /// Log position of the event; 0 for the devices there at the start.
        public var position: UInt64
    }

    /// Every MQTT device of every namespace (`.registered`, position 0, from one snapshot), then each change to
    /// them as it is recorded — by this process or another one on the same data directory — until the consumer
    /// stops: what the bridge subscribes to at start, and learns live.
    public func changes() -> AsyncThrowingStream<Change, any Error> {
        let log = self.log
        let (stream, continuation) = AsyncThrowingStream<Change, any Error>.makeStream(bufferingPolicy: .unbounded)
        let task = Task {
            do {
                let (head, start) = try log.read { ($0.head, try $0.mqttDevices.devices(namespace: nil)) }
                var known: [String: MQTTDevice] = [:]
                for device in start {
                    known[Self.key(device.namespace, device.user, device.deviceId)] = device
                    continuation.yield(Change(kind: .registered, device: device, position: 0))
                }
                let registrations = EventQuery(
                    types: [PushTargetRegistered.type, PushTargetUnregistered.type], from: head + 1)
                for try await event in log.follow(registrations) {
                    let key: String
                    var now: MQTTDevice?
                    if let target = try PushTargetRegistered.decode(event) {
                        key = Self.key(event.namespace, target.user, target.deviceId)
                        now = MQTTDevice(target, namespace: event.namespace)
                    } else if let gone = try PushTargetUnregistered.decode(event) {
                        key = Self.key(event.namespace, gone.user, gone.deviceId)
                    } else {
                        continue
                    }
                    let before = known[key]
                    guard before != now else { continue }
                    known[key] = now
                    if let before {
                        continuation.yield(Change(kind: .removed, device: before, position: event.position))
                    }
                    if let now { continuation.yield(Change(kind: .registered, device: now, position: event.position)) }
                }
                continuation.finish()
            } catch {
                continuation.finish(throwing: error)
            }
        }
        continuation.onTermination = { _ in task.cancel() }
        return stream
    }

    private static func key(_ namespace: String, _ user: String, _ deviceId: String) -> String {
        "\(namespace)\u{0}\(user)\u{0}\(deviceId)"
    }
}
