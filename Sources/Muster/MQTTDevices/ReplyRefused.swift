import EventLog
import Foundation

/// A reply an MQTT device published (recorded as the `DeviceDataReported` at `report`) that was not taken as a
/// response, and why: it names no message or one the user does not have, or the response it makes breaks the form's
/// rules. The person answered; the audit shows why nothing came of it.
public struct ReplyRefused: DomainEvent, Hashable, Codable {
    public static let type = "ReplyRefused"
    public static let schemaVersion: UInt16 = 1

    public var user: String
    public var deviceId: String
    /// The message the reply answers; nil when it names none.
    public var messageId: UUID?
    /// Why it was refused, as the response's check said.
    public var reason: String
    /// The position of the `DeviceDataReported` that holds the reply.
    public var report: UInt64

    public init(user: String, deviceId: String, messageId: UUID?, reason: String, report: UInt64) {
        self.user = user
        self.deviceId = deviceId
        self.messageId = messageId
        self.reason = reason
        self.report = report
    }
}

extension MQTTDevices {
    /// Records that a device's reply, recorded at `refused.report`, was not taken as a response.
    public func record(_ refused: ReplyRefused, namespace: String = Names.defaultNamespace, actor: String = "mqtt")
        async throws
    {
        try await log.perform { scope in
            _ = try scope.append(
                AppendRequest(
                    namespace: namespace, stream: Streams.device(refused.deviceId),
                    events: [refused.newEvent(actor: actor)]
                ))
        }
    }
}
