import EventLog
import Foundation

extension AreaNotices {
    /// Whether a device's live stream carries the rules' decisions not to act: the device's own choice when it
    /// made one, else the namespace's `traceLogging` setting.
    public struct TraceLogging: Sendable, Hashable {
        /// The device's own choice; nil when it follows the namespace.
        public var device: Bool?
        /// The namespace's `traceLogging` setting.
        public var namespace: Bool
        /// What the device's stream does (a stream opened with `trace=` overrides it for itself).
        public var effective: Bool { device ?? namespace }
    }

    /// `user`'s device `deviceId`'s trace logging.
    public func traceLogging(user: String, deviceId: String, namespace: String = Names.defaultNamespace) throws
        -> TraceLogging
    {
        try log.read { reader in try Self.traceLogging(user: user, deviceId: deviceId, namespace: namespace, reader) }
    }

    /// Turns trace logging on or off for `user`'s device `deviceId` (nil: back to the namespace's setting) and
    /// records it in the device's stream; nothing is recorded when the device already has that choice.
    @discardableResult
    public func setTraceLogging(
        _ enabled: Bool?, user: String, deviceId: String, namespace: String = Names.defaultNamespace,
        actor: String? = nil
    ) async throws -> TraceLogging {
        do {
            try Names.validate(deviceId, as: "device id")
        } catch let error as StoreError {
            throw MusterError(.invalidArgument, error.message, field: "deviceId")
        }
        return try await log.perform { scope in
            var current = try Self.traceLogging(user: user, deviceId: deviceId, namespace: namespace, scope)
            guard current.device != enabled else { return current }
            let set = DeviceTraceLoggingSet(user: user, deviceId: deviceId, enabled: enabled)
            try Self.append(set, namespace: namespace, actor: actor ?? user, scope)
            current.device = enabled
            return current
        }
    }

    static func traceLogging(user: String, deviceId: String, namespace: String, _ reader: some LogSnapshot)
        throws -> TraceLogging
    {
        let device = try reader.view(NoticesProjection()).traceLogging(
            user: user, deviceId: deviceId, namespace: namespace)
        let setting = try reader.settings.value(.traceLogging, namespace: namespace)
        return TraceLogging(device: device, namespace: setting == "true")
    }
}
