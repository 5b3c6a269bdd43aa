import Foundation
import MusterWire

extension PushSource {
    /// A configured source as the wire shows it.
    public init(_ source: PushSourceConfigured) {
        self.init(
            name: source.name, kind: source.kind,
            details: Dictionary(source.details.map { ($0.name, $0.value) }, uniquingKeysWith: { _, last in last }),
            endpoint: source.endpoint, fingerprint: source.fingerprint)
    }
}

extension PushTarget {
    /// A registered device as the wire shows it.
    public init(_ device: PushTargetRegistered) {
        self.init(
            user: device.user, deviceId: device.deviceId, deviceName: device.deviceName, platform: device.platform,
            token: device.token, publishTopic: device.publishTopic)
    }
}

extension DeliveryRecord {
    /// An outbox row as the wire shows it.
    public init(_ delivery: Delivery) {
        func date(_ micros: Int64) -> Date { Date(timeIntervalSince1970: Double(micros) / 1_000_000) }
        self.init(
            messageId: delivery.messageId, user: delivery.user, deviceId: delivery.deviceId,
            platform: delivery.platform, source: delivery.source,
            status: delivery.status, attempts: delivery.attempts,
            sentAt: date(delivery.sentAt), nextAttemptAt: delivery.status == .pending ? date(delivery.dueAt) : nil,
            expiresAt: date(delivery.expiresAt), lastStatus: delivery.lastStatus, lastReason: delivery.lastReason,
            providerId: delivery.providerId, finishedAt: delivery.finishedAt.map(date),
            kind: delivery.kind)
    }
}

extension LocationRequest {
    /// A recorded location request and the devices asked, as the wire shows it.
    public init(_ request: LocationRequested, devices: [String]) {
        self.init(requestId: request.requestId, user: request.user, reason: request.reason, devices: devices)
    }
}
