import Foundation

extension MusterClient {
    /// Handles a push notification in the app delegate (`didReceiveRemoteNotification`): gives the message a Muster
    /// push carries (fetching it when the push only names it), answers a location request, gives the area notice a
    /// push names (fetched from the device's notices), says `.withdrawn` for a message withdrawn, `.test` for an
    /// operator's test push and `.notMuster` for anything else.
    ///
    /// Runs on the caller's actor, so the platform's non-`Sendable` `userInfo` never crosses to another one.
    ///
    /// - Parameters:
    ///   - userInfo: the notification's payload as the platform delivers it.
    ///   - locationProvider: when given, a location request is answered by publishing its fix
    ///     (`.locationPublished`); without one the outcome is `.locationRequested` and the app publishes.
    nonisolated(nonsending) public func processPushNotification(
        _ userInfo: [AnyHashable: Any], locationProvider: LocationProvider? = nil
    ) async throws(MusterClientError) -> PushNotificationOutcome {
        guard let push = MusterPush(userInfo: userInfo) else { return .notMuster }
        return try await process(push, locationProvider: locationProvider)
    }

    /// Handles a recognised Muster push; see ``processPushNotification(_:locationProvider:)``.
    public func process(_ push: MusterPush, locationProvider: LocationProvider? = nil) async throws(MusterClientError)
        -> PushNotificationOutcome
    {
        switch push {
        case .message(let messageId, _, _, let carried):
            if let carried { return .message(carried) }
            return .message(try await message(id: messageId))
        case .test(let title, let body):
            return .test(title: title, body: body)
        case .withdrawn(let messageId, _):
            return .withdrawn(messageId)
        case .areaNotice(let noticeId, let deviceId, _, _):
            guard let notice = try await notices(deviceId: deviceId).first(where: { $0.id == noticeId })
            else { return .areaNoticeSettled(noticeId) }
            return .areaNotice(notice)
        case .locationRequest:
            guard let locationProvider else { return .locationRequested }
            let fix: LocationFix
            do {
                fix = try await locationProvider.currentLocation()
            } catch {
                let failure = MusterClientError(
                    code: .locationUnavailable,
                    message: "the server asked for the location, but it is unknown: \(error)")
                updateSession { $0.recordFailure(failure) }
                throw failure
            }
            let report = try await publishCurrentLocation(
                deviceId: locationProvider.deviceId, latitude: fix.latitude, longitude: fix.longitude,
                accuracy: fix.accuracy, at: fix.timestamp)
            return .locationPublished(report)
        }
    }
}
