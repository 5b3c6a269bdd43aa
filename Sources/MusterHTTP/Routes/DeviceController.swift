import Foundation
import Hummingbird
import Muster
import MusterWire

/// `/devices`: the caller's push targets — register (or update), list, unregister.
struct DeviceController {
    let api: API

    var endpoints: RouteCollection<API.Context> {
        RouteCollection(context: API.Context.self)
            .post("devices", use: register)
            .get("devices", use: list)
            .delete("devices/:deviceId", use: unregister)
    }

    /// The body of `POST /devices`.
    struct Device: Decodable {
        var deviceId: String
        var deviceName: String
        var platform: String
        var token: String?
    }

    @Sendable func register(_ request: Request, context: API.Context) async throws -> EditedResponse<PushTarget> {
        let caller = try context.caller()
        let device = try await request.decode(as: Device.self, context: context)
        guard let platform = PushTargetRegistered.Platform(rawValue: device.platform) else {
            let choices = PushTargetRegistered.Platform.allCases.map(\.rawValue).joined(separator: ", ")
            throw APIError(
                .badRequest, "bad_request", "platform \(device.platform) is not one of \(choices)",
                fields: [.init(field: "platform", message: "expected one of \(choices)")])
        }
        let target = PushTargetRegistered(
            user: caller.username, deviceId: device.deviceId, deviceName: device.deviceName, platform: platform,
            token: device.token)
        try await api.directory.register(target, namespace: caller.namespace, actor: caller.username)
        return EditedResponse(status: .created, response: PushTarget(target))
    }

    @Sendable func list(_ request: Request, context: API.Context) async throws -> [PushTarget] {
        let caller = try context.caller()
        return try api.directory.devices(user: caller.username, namespace: caller.namespace).map(PushTarget.init)
    }

    @Sendable func unregister(_ request: Request, context: API.Context) async throws -> HTTPResponse.Status {
        let caller = try context.caller()
        let deviceId = try context.parameters.require("deviceId")
        guard
            try await api.directory.unregister(
                user: caller.username, deviceId: deviceId, namespace: caller.namespace, actor: caller.username)
        else {
            throw APIError(.notFound, "not_found", "you have no device \(deviceId) registered")
        }
        return .noContent
    }
}

extension PushTarget {
    /// A registered device as the API shows it.
    init(_ target: PushTargetRegistered) {
        self.init(
            user: target.user, deviceId: target.deviceId, deviceName: target.deviceName,
            platform: Platform(rawValue: target.platform.rawValue) ?? .web, token: target.token)
    }
}
