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
        let provider = try PushSourceSetup.provider(
            for: source, secret: try sources.secret(of: source), options: options)
        defer { Task { try? await provider.shutdown() } }
        let title = "Muster test"
        let body = "A test notification through push source \(name)"
        let notice = PushNotice(kind: .test, title: title, body: body)
        var results: [Result] = []
        for device in devices {
            let push = Push(
                token: device.token ?? "", title: title, body: body,
                notice: Array(try MusterJSON.encoder().encode(notice)), collapseId: UUID().uuidString.lowercased(),
                expiresAt: Date().addingTimeInterval(3600))
            switch await provider.send(push) {
            case .delivered(let id):
                results.append(Result(deviceId: device.deviceId, outcome: "delivered", status: nil, detail: id))
            case .retry(let status, let reason, _):
                results.append(Result(deviceId: device.deviceId, outcome: "retry", status: status, detail: reason))
            case .unregistered(let status, let reason):
                results.append(
                    Result(deviceId: device.deviceId, outcome: "unregistered", status: status, detail: reason))
            case .rejected(let status, let reason):
                results.append(Result(deviceId: device.deviceId, outcome: "rejected", status: status, detail: reason))
            }
        }
        return results
    }
}
