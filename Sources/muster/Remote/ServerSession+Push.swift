import Foundation
import MusterClient
import MusterWire

/// Push sources and deliveries on a server: administrators only; the server checks the body as a data directory
/// does.
extension ServerSession {
    func configurePushSource(_ body: PushSourceBody) async throws -> PushSource {
        try await call { try await $0.configurePushSource(body) }
    }

    func pushSources() async throws -> [PushSource] { try await call { try await $0.pushSources() } }

    func removePushSource(name: String) async throws {
        try await call { try await $0.removePushSource(name: name) }
    }

    func testPushSource(name: String, user: String) async throws -> [PushTestResult] {
        try await call { try await $0.testPushSource(name: name, user: user) }
    }

    func deliveries(messageId: UUID?, user: String?, status: DeliveryRecord.Status?) async throws
        -> [DeliveryRecord]
    {
        try await call { try await $0.deliveries(messageId: messageId, user: user, status: status) }
    }

    func requestLocation(user: String, reason: String?) async throws -> LocationRequest {
        try await call { try await $0.requestLocation(user: user, reason: reason) }
    }
}
