import EventLog
import Foundation

/// Asking users' phones where they are, through the outbox.
public struct LocationRequests: Sendable {
    let log: EventLog

    public init(log: EventLog) { self.log = log }

    /// Records a location request for `user` and returns it with the devices it goes to; `.notFound` for an
    /// unknown user, `.invalidArgument` (nothing recorded) when none of the user's devices can be asked.
    public func request(
        user: String, reason: String? = nil, namespace: String = Names.defaultNamespace, actor: String = "system"
    ) async throws -> (request: LocationRequested, devices: [String]) {
        if let reason { try Names.validate(reason, as: "reason", field: "reason") }
        let request = LocationRequested(user: user, reason: reason)
        let devices = try await log.perform { scope -> [String] in
            guard try scope.directory.user(user, namespace: namespace) != nil else {
                throw MusterError(
                    .notFound, "no user named \(String(reflecting: user)) in namespace \(namespace)", field: "user")
            }
            let reachable = try OutboxProjection.reachable(
                user: user, namespace: namespace, platforms: LocationRequested.platforms, in: scope.outbox.state)
            guard !reachable.isEmpty else {
                throw MusterError(
                    .invalidArgument,
                    "user \(user) has no phone to ask: an apns or fcm device with a push token, and a push source for its platform (muster push-sources add)",
                    field: "user")
            }
            try scope.append(
                AppendRequest(
                    namespace: namespace, stream: Streams.locationRequests(of: user),
                    events: [request.newEvent(actor: actor)])
            )
            return reachable.map(\.deviceId)
        }
        return (request, devices)
    }
}

extension LocationRequested {
    /// The platforms whose apps can be woken silently to publish a location.
    static let platforms: Set<PushTargetRegistered.Platform> = [.apns, .fcm]
}
