import Foundation
import MusterWire

extension MusterClient {
    /// Admin: the server's MQTT bridge — broker, connection, devices, counts (`GET /api/v1/mqtt/status`);
    /// `no_mqtt` when the server runs without one.
    public func mqttStatus() async throws(MusterClientError) -> MQTTStatus {
        let request = APIRequest("GET", ["mqtt", "status"])
        return try decode(MQTTStatus.self, from: try await perform(request), of: request)
    }

    /// Admin: publishes a settings message to a user's MQTT device and returns its receipt, nil when the device sent
    /// none in time (`POST /api/v1/mqtt/devices/{deviceId}/settings`).
    public func sendMQTTSettings(_ settings: [String], deviceId: String, user: String)
        async throws(MusterClientError) -> MQTTSettingsAnswer
    {
        let request = try APIRequest(
            "POST", ["mqtt", "devices", deviceId, "settings"], json: MQTTSettingsBody(user: user, settings: settings))
        return try decode(MQTTSettingsAnswer.self, from: try await perform(request), of: request)
    }
}
