import EventLog
import Foundation
import MusterWire

/// The outbox read and written: which deliveries are due, what each push carries, and every attempt's outcome
/// recorded as an event.
///
/// An outcome is recorded only while the delivery still waits for that attempt, so two senders (or one sending
/// again after a crash) record each attempt once.
public struct Deliveries: Sendable {
    let log: EventLog
    /// The notices of this value's deliveries, encoded once per message.
    let notices = NoticeTemplates()

    public init(log: EventLog) { self.log = log }

    // MARK: Reading

    /// Pending deliveries due at or before `now` (µs since 1970), earliest first, at most `limit`.
    public func due(at now: Int64, limit: Int) throws -> [Delivery] {
        try log.read { reader in
            let outbox = try reader.outbox
            var due: [Delivery] = []
            try outbox.state.scan("due") { key, _ in
                guard Int64(Key.readPosition(key)) <= now, due.count < limit else { return false }
                if let delivery = try outbox.delivery(key: Array(key.dropFirst(8))) { due.append(delivery) }
                return true
            }
            return due
        }
    }

    /// When the earliest pending delivery is due (µs since 1970); nil when none is pending.
    public func nextDue() throws -> Int64? {
        try log.read { reader in
            var next: Int64?
            try reader.outbox.state.scan("due") { key, _ in
                next = Int64(Key.readPosition(key))
                return false
            }
            return next
        }
    }

    /// The namespace's deliveries: of one message, of one user, in one status (each filter optional); by
    /// message, then device.
    public func list(
        namespace: String = Names.defaultNamespace, messageId: UUID? = nil, user: String? = nil,
        status: Delivery.Status? = nil
    ) throws -> [Delivery] {
        try log.read { reader in
            var found: [Delivery] = []
            let prefix = messageId.map { Key.joined(namespace, $0.uuidString) } ?? Key.joined(namespace)
            try reader.outbox.state.scan("deliveries", prefix: prefix) { _, value in
                let delivery = try OutboxProjection.decode(value)
                if (user == nil || delivery.user == user) && (status == nil || delivery.status == status) {
                    found.append(delivery)
                }
                return true
            }
            return found
        }
    }

    /// How many deliveries are pending, in every namespace.
    public func pendingCount() throws -> Int {
        try log.read { try $0.outbox.state.count("due") }
    }

    /// The device's current push token for this delivery's platform; nil when the device is no longer
    /// registered (or now takes pushes on another platform).
    public func token(for delivery: Delivery) throws -> String? {
        try log.read { reader in
            guard
                let value = try reader.outbox.state.get(
                    "targets", Key.joined(delivery.namespace, delivery.user, delivery.deviceId)),
                let separator = value.firstIndex(of: 0),
                String(decoding: value[..<separator], as: UTF8.self) == delivery.platform.rawValue
            else { return nil }
            return String(decoding: value[(separator + 1)...], as: UTF8.self)
        }
    }

    /// The area notice a delivery of kind `areaNotice` tells the app of: the event that handed it.
    public func areaNotice(of delivery: Delivery) throws -> AreaNotificationHanded {
        let event = try log.read { try $0.event(at: delivery.sentPosition) }
        guard let event, let handed = try AreaNotificationHanded.decode(event), handed.noticeId == delivery.messageId
        else {
            throw StoreError(
                .corrupt,
                "the outbox refers to a missing AreaNotificationHanded for notice "
                    + delivery.messageId.uuidString.lowercased())
        }
        return handed
    }

    /// The message the delivery carries, as `GET /api/v1/messages/{id}` gives it: read as
    /// `Notifications.message(id:user:namespace:)` reads it, with the send decoded once for all its deliveries.
    /// A direct payload (no `payloadName`) is parsed once per send; a named one is resolved on every call.
    public func message(of delivery: Delivery) throws -> Message {
        let (id, namespace) = (delivery.messageId, delivery.namespace)
        let stored = try log.read { reader -> Stored? in
            guard let found = try reader.sentMessage(id, user: delivery.user, namespace: namespace) else { return nil }
            let (sent, message) = (found.send.sent, found.message)
            if let direct = found.send.direct {
                return .parsed(
                    Message(
                        messageId: id, title: sent.title, body: sent.body, sentAt: message.sentDate,
                        sender: sent.sender, source: sent.source, payload: direct))
            }
            let resolved = try reader.namedPayloads.resolve(sent.payload, namespace: namespace)
            return .stored(
                StoredMessage(
                    message: message, sender: sent.sender, source: sent.source,
                    payload: resolved ?? Data(sent.payload), sentPayload: Data(sent.payload)))
        }
        switch stored {
        case .parsed(let message): return message
        case .stored(let stored): return try Message(stored)
        case nil:
            throw StoreError(
                .corrupt,
                "the outbox holds message \(id.uuidString.lowercased()),"
                    + " which the inbox does not")
        }
    }

    /// A delivery's message as read: built already (a direct payload) or still to parse.
    private enum Stored {
        case parsed(Message)
        case stored(StoredMessage)
    }

    /// The `PushNotice` JSON (`MusterJSON.encoder()`) of kind `message` for `message`: the whole message in it
    /// when `whole`, else only its id, title and body. Encoded once per message and its recipients' ids put in.
    public func notice(for message: Message, whole: Bool) throws -> [UInt8] {
        try notices.notice(for: message, whole: whole)
    }

    // MARK: Recording outcomes

    /// A provider took attempt `attempt`.
    public func delivered(
        _ delivery: Delivery, attempt: Int, providerId: String?, carried: PushDelivered.Carried
    ) async throws {
        let event = PushDelivered(
            messageId: delivery.messageId, user: delivery.user, deviceId: delivery.deviceId, source: delivery.source,
            attempt: attempt, providerId: providerId, carried: carried)
        try await record(delivery, attempt: attempt, [event.newEvent(actor: Self.actor)], evenIfForgone: true)
    }

    /// Attempt `attempt` failed; retried at `nextAttemptAt` (µs), or never when nil.
    public func failed(
        _ delivery: Delivery, attempt: Int, status: Int?, reason: String, nextAttemptAt: Int64?
    ) async throws {
        let event = PushFailed(
            messageId: delivery.messageId, user: delivery.user, deviceId: delivery.deviceId, source: delivery.source,
            attempt: attempt, status: status, reason: reason, nextAttemptAt: nextAttemptAt)
        try await record(delivery, attempt: attempt, [event.newEvent(actor: Self.actor)])
    }

    /// The provider says the device is gone: the attempt failed for good and the device is unregistered, so
    /// nothing more goes to it.
    public func unregistered(_ delivery: Delivery, attempt: Int, status: Int, reason: String) async throws {
        let failed = PushFailed(
            messageId: delivery.messageId, user: delivery.user, deviceId: delivery.deviceId, source: delivery.source,
            attempt: attempt, status: status, reason: reason, nextAttemptAt: nil)
        let gone = PushTargetUnregistered(
            user: delivery.user, deviceId: delivery.deviceId,
            reason: "\(delivery.platform.rawValue) \(status) \(reason)")
        try await record(
            delivery, attempt: attempt, [failed.newEvent(actor: Self.actor)],
            alsoInDevices: gone.newEvent(actor: Self.actor))
    }

    /// The delivery's time to live ran out after `attempts` attempts.
    public func expired(_ delivery: Delivery, attempts: Int) async throws {
        let event = PushExpired(
            messageId: delivery.messageId, user: delivery.user, deviceId: delivery.deviceId, attempts: attempts)
        try await record(delivery, attempt: attempts + 1, [event.newEvent(actor: Self.actor)])
    }

    /// Who the log says recorded outcomes.
    static let actor = "deliveries"

    /// Appends the outcome of attempt `attempt` while the delivery still waits for it; does nothing otherwise. With
    /// `evenIfForgone`, also when the message was withdrawn while the attempt was on its way: it reached the device,
    /// which is then sent the withdrawal.
    private func record(
        _ delivery: Delivery, attempt: Int, _ events: [NewEvent], alsoInDevices device: NewEvent? = nil,
        evenIfForgone: Bool = false
    ) async throws {
        try await log.perform { scope in
            guard let current = try scope.outbox.delivery(key: delivery.key),
                current.status == .pending || (evenIfForgone && current.wasForgone),
                current.kind == delivery.kind, current.attempts == attempt - 1
            else { return }
            try scope.append(
                AppendRequest(
                    namespace: delivery.namespace, stream: Streams.push(delivery.messageId), events: events))
            if let device {
                try scope.append(
                    AppendRequest(
                        namespace: delivery.namespace, stream: Streams.devices(of: delivery.user),
                        events: [device]))
            }
        }
    }
}

extension LogSnapshot {
    /// The outbox in this snapshot.
    var outbox: ProjectionView<OutboxProjection> { get throws { try view(OutboxProjection()) } }
}

extension ProjectionView<OutboxProjection> {
    /// The delivery under an outbox key (`ns 0 messageId 0 deviceId 0`); nil when there is none.
    func delivery(key: [UInt8]) throws -> Delivery? {
        try state.withValue("deliveries", key) { value in try value.map(OutboxProjection.decode) }
    }
}
