import EventLog
import Foundation
import Muster
import MusterWire
import PushProviders

/// `muster push-sources test NAME --user U`: sends a visible test notification through one source to each of
/// the user's devices it reaches, at once (not through the outbox), and says what each provider answered.
public enum PushSourceTest {
    /// What one device's provider answered.
    public struct Result: Sendable, Hashable, Codable {
        public var deviceId: String
        /// `delivered`, `retry`, `unregistered` or `rejected`.
        public var outcome: String
        public var status: Int?
        public var detail: String?
    }

    /// Sends the test push; `.notFound` for an unknown source, `.invalidArgument` when the user has no device
    /// the source reaches.
    public static func run(
        source name: String, user: String, namespace: String, log: EventLog, options: ProviderConnectionOptions
    ) async throws -> [Result] {
        let sources = PushSources(log: log)
        guard let source = try sources.source(name, namespace: namespace) else {
            throw MusterError(
                .notFound, "no push source \(String(reflecting: name)) in namespace \(namespace)", field: "name")
        }
        let devices = try Directory(log: log).devices(user: user, namespace: namespace).filter {
            $0.platform == source.kind.platform && !($0.token ?? "").isEmpty
        }
        guard !devices.isEmpty else {
            throw MusterError(
                .invalidArgument,
                "user \(user) has no \(source.kind.platform.rawValue) device with a push token in namespace \(namespace); register one first (muster devices register)",
                field: "user")
        }
        let provider = try await PushSourceSetup.provider(
            for: source, secret: try sources.secret(of: source), options: options)
        let title = "Muster test"
        let body = "A test notification through push source \(name)"
        let notice = Array(try MusterJSON.encoder().encode(PushNotice(kind: .test, title: title, body: body)))
        var results: [Result] = []
        for device in devices {
            let push = Push(
                token: device.token ?? "", title: title, body: body, notice: notice,
                collapseId: UUID().uuidString.lowercased(), expiresAt: Date().addingTimeInterval(3600))
            results.append(Result(deviceId: device.deviceId, outcome: await provider.send(push)))
        }
        // The provider's connections close before the answer goes back (a CLI process exits right after).
        try? await provider.shutdown()
        return results
    }
}

extension PushSourceTest.Result {
    /// What a provider answered for one device.
    init(deviceId: String, outcome: PushOutcome) {
        switch outcome {
        case .delivered(let id): self.init(deviceId: deviceId, outcome: "delivered", status: nil, detail: id)
        case .retry(let status, let reason, _):
            self.init(deviceId: deviceId, outcome: "retry", status: status, detail: reason)
        case .unregistered(let status, let reason):
            self.init(deviceId: deviceId, outcome: "unregistered", status: status, detail: reason)
        case .rejected(let status, let reason):
            self.init(deviceId: deviceId, outcome: "rejected", status: status, detail: reason)
        }
    }
}
