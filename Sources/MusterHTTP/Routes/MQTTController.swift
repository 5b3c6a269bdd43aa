import Foundation
import Hummingbird
import MQTTBridge
import Muster
import MusterWire

/// `/mqtt/…`: the MQTT bridge of this server, for administrators — its connection and counts, and settings
/// messages to devices (seed 001), answered with the device's receipt.
struct MQTTController: APIController {
    let api: API

    func addRoutes(to routes: some RouterMethods<API.Context>) {
        routes
            .get("mqtt/status", for: .administrator, use: status)
            .post("mqtt/devices/:deviceId/settings", for: .administrator, use: settings)
    }

    private var bridge: MQTTBridge {
        get throws {
            guard let bridge = api.mqtt else {
                throw APIError(
                    .conflict, "no_mqtt", "this server has no MQTT bridge: start it with muster serve --mqtt URL")
            }
            return bridge
        }
    }

    @Sendable func status(_ request: Request, context: API.Context, caller: API.Caller) async throws -> MQTTStatus {
        try bridge.status
    }

    @Sendable func settings(_ request: Request, context: API.Context, caller: API.Caller) async throws
        -> MQTTSettingsAnswer
    {
        let deviceId = try context.pathParameter("deviceId")
        let body = try await request.decode(as: MQTTSettingsBody.self, context: context)
        do {
            let receipt = try await bridge.sendSettings(
                body.settings, to: deviceId, user: body.user, namespace: caller.namespace)
            let json = try receipt.map { try JSONValue(json: MusterJSON.encoder().encode($0)).objectValue ?? [:] }
            return MQTTSettingsAnswer(deviceId: deviceId, receipt: json)
        } catch let failure as NotPublished {
            throw APIError(
                .serviceUnavailable, "unavailable", "the broker did not take the settings message: \(failure)")
        }
    }
}
