import EventLog
import Foundation

extension AreaNotices {
    /// Something a device's application hears from the server (seed 004's SDK delegate messages).
    public struct DeviceEvent: Sendable, Hashable {
        public enum Change: Sendable, Hashable {
            /// The raw event: the device entered or left an area, whatever the rules then decide.
            case areaEntered(AreaTransition)
            case areaExited(AreaTransition)
            /// The device's position as the server knows it.
            case positionChanged(LocationReported)
            /// A rule's notification or server notification URL, handed to the app.
            case areaNotification(AreaNotificationHanded)
            /// A rule decided not to act, and why (trace logging).
            case trace(message: String, RuleEvaluated)
        }
        /// Log position of the event: an app that reconnects resumes after it.
        public var position: UInt64
        public var change: Change
    }

    /// What happens on `user`'s device `deviceId` from log position `from` (nil: from now on), live, until the
    /// consumer stops: areas entered and left, positions, handed notices, and with trace logging the
    /// decisions not to act.
    /// - Parameter trace: whether to include the decisions not to act; nil follows the device's own trace
    ///   logging, or the namespace's `traceLogging` setting when it has none, as they are when each decision is
    ///   read (events are read as the consumer asks for them).
    public func deviceEvents(
        user: String, deviceId: String, namespace: String = Names.defaultNamespace, from: UInt64? = nil,
        trace: Bool? = nil
    ) -> some AsyncSequence<DeviceEvent, any Error> & Sendable {
        let log = self.log
        let events = log.follow(
            EventQuery(namespace: namespace, stream: Streams.device(deviceId), from: from ?? (log.head + 1)))
        return events.compactMap { @Sendable event in
            let tracing = {
                try trace
                    ?? log.read { try Self.traceLogging(user: user, deviceId: deviceId, namespace: namespace, $0) }
                    .effective
            }
            return try Self.change(event, user: user, tracing: tracing).map {
                DeviceEvent(position: event.position, change: $0)
            }
        }
    }

    /// The change an event of the device's stream makes for the app; nil when it makes none (or is another
    /// user's record for the same device id).
    static func change(_ event: RecordedEvent, user: String, tracing: () throws -> Bool) throws
        -> DeviceEvent.Change?
    {
        if let transition = try AreaTransition.decode(event), transition.user == user {
            return transition.trigger == "on_exit" ? .areaExited(transition) : .areaEntered(transition)
        }
        if let fix = try LocationReported.decode(event), fix.user == user {
            return .positionChanged(fix)
        }
        if let handed = try AreaNotificationHanded.decode(event), handed.user == user {
            return .areaNotification(handed)
        }
        if let decision = try RuleEvaluated.decode(event), decision.user == user, let message = decision.notActing,
            try tracing()
        {
            return .trace(message: message, decision)
        }
        return nil
    }
}

extension RuleEvaluated {
    /// The trace line of a decision not to act; nil when the rule acted, waits for its hook, or was handed to the
    /// application.
    public var notActing: String? {
        guard !fired, !awaitingServer, decision != "delegated" else { return nil }
        return "not acting: rule \(rule) of \(kind.isEmpty ? "area" : kind) \(area) (\(trigger)): \(reason)"
    }
}
