import EventLog
import Foundation

/// The outbox: one delivery per (recipient of a sent message, registered device whose platform has a push
/// source in the namespace, or an MQTT device) and per phone asked for its location, and where each stands. Kept
/// inline, so a delivery exists as soon as its send is acknowledged and a restart resumes exactly what was pending.
///
/// A `MessageWithdrawn` ends the message's deliveries still pending, as expired, and makes each one delivered a
/// withdrawal: the alert that replaces the message's on the device (no release before it wrote one: no rebuild).
/// Version 3: MQTT devices get deliveries (through the broker connection, source `mqtt`). Version 4: an area
/// notification handed to a device's app gets a delivery to that device (not to an MQTT device: it has no notices).
///
/// Tables:
/// - `deliveries`: `ns 0 messageId 0 deviceId 0` → `Delivery` (binary).
/// - `due`: due time (8 bytes, big-endian µs) + `ns 0 messageId 0 deviceId 0` → nothing; pending ones only.
/// - `targets`: `ns 0 user 0 deviceId 0` → platform 0 token: the devices pushes can reach.
/// - `sources`: `ns 0 name 0` → kind: the push sources, to choose one per platform.
public struct OutboxProjection: Projection {
    public static let name = "outbox"
    public var name: String { Self.name }
    public var version: UInt32 { 4 }
    public var mode: ProjectionMode { .inline }
    public var tables: [String] { ["deliveries", "due", "targets", "sources"] }
    public var eventTypes: Set<String>? {
        [
            PayloadSent.type, LocationRequested.type, AreaNotificationHanded.type, PushDelivered.type, PushFailed.type,
            PushExpired.type,
            PushTargetRegistered.type, PushTargetUnregistered.type, PushSourceConfigured.type, PushSourceRemoved.type,
            MessageWithdrawn.type,
        ]
    }

    public init() {}

    public func apply(_ event: RecordedEvent, to state: ProjectionState) throws {
        let ns = event.namespace
        switch event.type {
        case PayloadSent.type:
            try queue(try PayloadSent.decode(event)!, event, state)
        case LocationRequested.type:
            try queue(try LocationRequested.decode(event)!, event, state)
        case AreaNotificationHanded.type:
            try queue(try AreaNotificationHanded.decode(event)!, event, state)
        case PushDelivered.type:
            let done = try PushDelivered.decode(event)!
            if try reachedAfterItsWithdrawal(done, event, state) { break }
            try update(ns, done.messageId, done.deviceId, state) { delivery in
                delivery.status = .delivered
                delivery.attempts = done.attempt
                delivery.providerId = done.providerId
                delivery.finishedAt = event.recordedAt
            }
        case PushFailed.type:
            let failed = try PushFailed.decode(event)!
            try update(ns, failed.messageId, failed.deviceId, state) { delivery in
                delivery.attempts = failed.attempt
                delivery.lastStatus = failed.status
                delivery.lastReason = failed.reason
                if let next = failed.nextAttemptAt {
                    delivery.dueAt = next
                } else {
                    delivery.status = .failed
                    delivery.finishedAt = event.recordedAt
                }
            }
        case PushExpired.type:
            let expired = try PushExpired.decode(event)!
            try update(ns, expired.messageId, expired.deviceId, state) { delivery in
                delivery.status = .expired
                delivery.attempts = expired.attempts
                delivery.finishedAt = event.recordedAt
            }
        case PushTargetRegistered.type:
            let target = try PushTargetRegistered.decode(event)!
            let key = Key.joined(ns, target.user, target.deviceId)
            if let token = target.token, !token.isEmpty {
                try state.put("targets", key, Key.joined(target.platform.rawValue) + Array(token.utf8))
            } else {
                try state.delete("targets", key)
            }
        case PushTargetUnregistered.type:
            let gone = try PushTargetUnregistered.decode(event)!
            try state.delete("targets", Key.joined(ns, gone.user, gone.deviceId))
        case PushSourceConfigured.type:
            let source = try PushSourceConfigured.decode(event)!
            try state.put("sources", Key.joined(ns, source.name), Array(source.kind.rawValue.utf8))
        case PushSourceRemoved.type:
            try state.delete("sources", Key.joined(ns, try PushSourceRemoved.decode(event)!.name))
        case MessageWithdrawn.type:
            try forgo(try MessageWithdrawn.decode(event)!.messageId, ns, event, state)
        default: break
        }
    }

    /// One delivery per recipient's device that a source of the namespace reaches.
    private func queue(_ sent: PayloadSent, _ event: RecordedEvent, _ state: ProjectionState) throws {
        for recipient in sent.recipients {
            let targets = try Self.reachable(
                user: recipient.user, namespace: event.namespace, preferring: sent.source, in: state)
            for target in targets {
                try put(Delivery(.message, id: recipient.messageId, user: recipient.user, to: target, event), state)
            }
        }
    }

    /// One delivery per phone of the user that a source reaches: the silent push asking for its location.
    private func queue(_ request: LocationRequested, _ event: RecordedEvent, _ state: ProjectionState) throws {
        let targets = try Self.reachable(
            user: request.user, namespace: event.namespace, platforms: LocationRequested.platforms, in: state)
        for target in targets {
            try put(Delivery(.locationRequest, id: request.requestId, user: request.user, to: target, event), state)
        }
    }

    /// One delivery to the device a notice was handed to, when a source reaches it: the push that tells its app.
    private func queue(_ notice: AreaNotificationHanded, _ event: RecordedEvent, _ state: ProjectionState) throws {
        let targets = try Self.reachable(
            user: notice.user, namespace: event.namespace, platforms: notice.pushPlatforms, in: state)
        for target in targets where target.deviceId == notice.deviceId {
            try put(Delivery(.areaNotice, id: notice.noticeId, user: notice.user, to: target, event), state)
        }
    }

    /// The source named in deliveries to MQTT devices: the broker connection of `serve --mqtt`.
    public static let mqttSource = "mqtt"

    /// A device a push can reach, and the source it goes through.
    struct Target {
        var deviceId: String
        var platform: PushTargetRegistered.Platform
        var source: String
    }

    /// The user's devices on `platforms` (all when nil) with a push token and a source of their platform in the
    /// namespace: the source named `preferring` when it reaches the device, else the platform's first by name.
    static func reachable(
        user: String, namespace ns: String, platforms: Set<PushTargetRegistered.Platform>? = nil,
        preferring preferred: String? = nil, in state: ProjectionState
    ) throws -> [Target] {
        var sources: [(name: String, kind: PushSourceConfigured.Kind)] = []
        try state.scan("sources", prefix: Key.joined(ns)) { key, value in
            if let kind = PushSourceConfigured.Kind(rawValue: String(decoding: value, as: UTF8.self)) {
                sources.append((Key.components(key)[1], kind))
            }
            return true
        }
        var targets: [Target] = []
        try state.scan("targets", prefix: Key.joined(ns, user)) { key, value in
            guard let platform = Key.components(value).first.flatMap(PushTargetRegistered.Platform.init(rawValue:)),
                platforms?.contains(platform) ?? true
            else { return true }
            guard platform != .mqtt else {
                // MQTT devices are reached through the server's broker connection (`serve --mqtt`), not a source.
                targets.append(Target(deviceId: Key.components(key)[2], platform: platform, source: Self.mqttSource))
                return true
            }
            let reaching = sources.filter { $0.kind.platform == platform }
            if let source = reaching.first(where: { $0.name == preferred }) ?? reaching.first {
                targets.append(Target(deviceId: Key.components(key)[2], platform: platform, source: source.name))
            }
            return true
        }
        return targets
    }

    /// Ends the deliveries of a withdrawn message not made yet: expired, saying why, and no longer due. Each one made
    /// becomes a withdrawal, due at once, to replace the alert the device shows — unless the device no longer takes
    /// pushes on that platform, or is an MQTT device (MQTT Connect has nothing that takes a dialog back).
    private func forgo(_ messageId: UUID, _ ns: String, _ event: RecordedEvent, _ state: ProjectionState) throws {
        var deliveries: [Delivery] = []
        try state.scan("deliveries", prefix: Key.joined(ns, messageId.uuidString)) { _, value in
            deliveries.append(try Self.decode(value))
            return true
        }
        for delivery in deliveries {
            if delivery.status == .pending {
                try update(ns, messageId, delivery.deviceId, state) { delivery in
                    delivery.status = .expired
                    delivery.lastReason = Delivery.forgone
                    delivery.finishedAt = event.recordedAt
                }
            } else if delivery.kind == .message, delivery.status == .delivered {
                try withdraw(delivery, event, state)
            }
        }
    }

    /// A message's push that was on its way when the message was withdrawn reached the device after all: the
    /// delivery is made anew as a withdrawal. False for any other outcome, and when no push can reach the device now
    /// (then the outcome is recorded as any other).
    private func reachedAfterItsWithdrawal(
        _ done: PushDelivered, _ event: RecordedEvent, _ state: ProjectionState
    ) throws -> Bool {
        guard done.carried != .withdrawal,
            let value = try state.get(
                "deliveries", Key.joined(event.namespace, done.messageId.uuidString, done.deviceId)),
            case let delivery = try Self.decode(value), delivery.wasForgone
        else { return false }
        return try withdraw(delivery, event, state)
    }

    /// Queues the withdrawal of a message that reached the device, when a push can still reach it there; false when
    /// none can.
    @discardableResult
    private func withdraw(_ delivery: Delivery, _ event: RecordedEvent, _ state: ProjectionState) throws -> Bool {
        guard delivery.platform != .mqtt,
            let target = try state.get("targets", Key.joined(delivery.namespace, delivery.user, delivery.deviceId)),
            Key.components(target).first == delivery.platform.rawValue
        else { return false }
        try put(delivery.withdrawal(event), state)
        return true
    }

    /// Changes a delivery and moves its `due` entry; a delivery the outbox does not hold is left alone.
    private func update(
        _ ns: String, _ messageId: UUID, _ deviceId: String, _ state: ProjectionState,
        _ change: (inout Delivery) -> Void
    ) throws {
        let key = Key.joined(ns, messageId.uuidString, deviceId)
        guard let value = try state.get("deliveries", key) else { return }
        var delivery = try Self.decode(value)
        if delivery.status == .pending { _ = try state.delete("due", Key.position(UInt64(delivery.dueAt)) + key) }
        change(&delivery)
        try put(delivery, state)
    }

    private func put(_ delivery: Delivery, _ state: ProjectionState) throws {
        var writer = ByteWriter(capacity: 160)
        try BinaryCoding.encode(delivery, into: &writer)
        try state.put("deliveries", delivery.key, writer.bytes)
        if delivery.status == .pending {
            try state.put("due", Key.position(UInt64(max(delivery.dueAt, 0))) + delivery.key, [])
        }
    }

    static func decode(_ value: UnsafeRawBufferPointer) throws -> Delivery {
        var reader = ByteReader(value)
        return try BinaryCoding.decode(Delivery.self, from: &reader)
    }

    static func decode(_ value: [UInt8]) throws -> Delivery {
        try value.withUnsafeBytes { try decode($0) }
    }
}
