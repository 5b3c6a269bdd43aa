import Foundation
import Muster
import MusterHTTP
import MusterWire
import PushDelivery
import PushProviders

/// Push sources and deliveries on a data directory.
extension LocalBackend {
    /// Checks `body` as the server does (a `PushConfigurationError` names the option), then stores the source.
    func configurePushSource(_ body: PushSourceBody) async throws -> PushSource {
        let prepared = try PushSourceSetup.prepare(body)
        let configured = try await PushSources(log: log).configure(
            body.name, kind: prepared.kind, details: prepared.details, endpoint: prepared.endpoint,
            secret: prepared.secret, namespace: namespace, actor: "cli")
        return PushSource(configured)
    }

    func pushSources() async throws -> [PushSource] {
        try PushSources(log: log).list(namespace: namespace).map(PushSource.init)
    }

    func removePushSource(name: String) async throws {
        try await PushSources(log: log).remove(name, namespace: namespace, actor: "cli")
    }

    /// Connects to the provider with the default connection options (the public trust roots).
    func testPushSource(name: String, user: String) async throws -> [PushTestResult] {
        try await PushSourceTest.run(
            source: name, user: user, namespace: namespace, log: log, options: ProviderConnectionOptions()
        ).map(PushTestResult.init)
    }

    func deliveries(messageId: UUID?, user: String?, status: DeliveryRecord.Status?) async throws
        -> [DeliveryRecord]
    {
        if let user { try requireUser(user) }
        return try Deliveries(log: log).list(
            namespace: namespace, messageId: messageId, user: user,
            status: status
        ).map(DeliveryRecord.init)
    }

    func requestLocation(user: String, reason: String?) async throws -> LocationRequest {
        let (request, devices) = try await LocationRequests(log: log).request(
            user: user, reason: reason, namespace: namespace, actor: "cli")
        return LocationRequest(request, devices: devices)
    }
}
