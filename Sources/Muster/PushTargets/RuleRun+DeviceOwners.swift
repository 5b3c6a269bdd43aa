import EventLog

extension RuleRun {
    /// Refuses a report for a device id that another user of the namespace registered (and the
    /// reporter did not): a report must not speak for someone else's device. An id nobody
    /// registered is accepted; presence is kept by user, so it moves only the reporter's own.
    func requireOwnDevice(_ deviceId: String) throws {
        guard let reporter else { return }
        let owners = try scope.view(DeviceOwnersProjection()).owners(of: deviceId, namespace: namespace)
        guard owners.isEmpty || owners.contains(reporter.name) else {
            // The owner is not named: who owns a device is not the reporter's business.
            throw MusterError(
                .conflict,
                "deviceId: device \(String(reflecting: deviceId)) is registered to another user of namespace "
                    + "\(namespace); report your own device (POST /api/v1/devices registers it to you)")
        }
    }
}
