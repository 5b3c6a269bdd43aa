import Foundation
import MusterWire

extension MusterClient {
    /// Registers this device as one of the user's push targets (`POST /api/v1/devices`); registering the same
    /// `deviceId` again updates its name, platform and token.
    ///
    /// - Parameters:
    ///   - deviceId: an id unique among the user's devices and stable across launches.
    ///   - deviceName: a name the user recognises, e.g. "Anna's iPhone".
    ///   - platform: how pushes reach it.
    ///   - token: the platform's push token; for APNs, ``convertAPNSToken(_:)`` of the device token; for MQTT, the
    ///     device's `SubscribeTopic`.
    ///   - publishTopic: for MQTT only (and required there): the device's `PublishTopic`.
    public func registerDevice(
        deviceId: String, deviceName: String, platform: PushTarget.Platform, token: String? = nil,
        publishTopic: String? = nil
    ) async throws(MusterClientError) -> PushTarget {
        let body = DeviceRegistrationBody(
            deviceId: deviceId, deviceName: deviceName, platform: platform, token: token, publishTopic: publishTopic)
        let request = try APIRequest("POST", ["devices"], json: body)
        return try decode(PushTarget.self, from: try await perform(request), of: request)
    }

    /// The APNs device token as the server expects it: lowercase hex, two digits per byte.
    ///
    /// - Parameter token: the `Data` given to `application(_:didRegisterForRemoteNotificationsWithDeviceToken:)`.
    public static func convertAPNSToken(_ token: Data) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var hex = [UInt8]()
        hex.reserveCapacity(token.count * 2)
        for byte in token {
            hex.append(digits[Int(byte >> 4)])
            hex.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: hex, as: UTF8.self)
    }

    /// The user's registered devices (`GET /api/v1/devices`).
    public func devices() async throws(MusterClientError) -> [PushTarget] {
        let request = APIRequest("GET", ["devices"])
        return try decode([PushTarget].self, from: try await perform(request), of: request)
    }

    /// Stops pushes to one of the user's devices (`DELETE /api/v1/devices/{deviceId}`); `not_found` when the user
    /// has no such device.
    public func unregisterDevice(deviceId: String) async throws(MusterClientError) {
        _ = try await perform(APIRequest("DELETE", ["devices", deviceId]))
    }

    /// Admin: another user's registered devices (`GET /api/v1/users/{name}/devices`).
    public func devices(of user: String) async throws(MusterClientError) -> [PushTarget] {
        let request = APIRequest("GET", ["users", user, "devices"])
        return try decode([PushTarget].self, from: try await perform(request), of: request)
    }

    /// Admin: stops pushes to another user's device (`DELETE /api/v1/users/{name}/devices/{deviceId}`), a lost phone
    /// say; the audit says which administrator did it. `not_found` for no such user or device.
    public func unregisterDevice(deviceId: String, of user: String) async throws(MusterClientError) {
        _ = try await perform(APIRequest("DELETE", ["users", user, "devices", deviceId]))
    }
}
