import Foundation
import Hummingbird
import Muster
import MusterWire
import PushDelivery

/// `/devices`: the caller's push targets — register (or update), list, unregister.
struct DeviceController: APIController {
    let api: API

    func addRoutes(to routes: some RouterMethods<API.Context>) {
        routes
            .post("devices", for: .user, use: register)
            .get("devices", for: .user, use: list)
            .delete("devices/:deviceId", for: .user, use: unregister)
    }

    @Sendable func register(_ request: Request, context: API.Context, caller: API.Caller) async throws
        -> EditedResponse<PushTarget>
    {
        let device = try await request.decode(as: DeviceRegistrationBody.self, context: context)
        guard let platform = PushTargetRegistered.Platform(rawValue: device.platform) else {
            let choices = PushTargetRegistered.Platform.allCases.map(\.rawValue).joined(separator: ", ")
            throw APIError(
                .badRequest, "bad_request", "platform \(device.platform) is not one of \(choices)",
                fields: [.init(field: "platform", message: "expected one of \(choices)")])
        }
        try PushTargetCheck.check(platform: platform, token: device.token)
        let target = PushTargetRegistered(
            user: caller.username, deviceId: device.deviceId, deviceName: device.deviceName, platform: platform,
            token: device.token, publishTopic: device.publishTopic)
        try await api.directory.register(target, namespace: caller.namespace, actor: caller.username)
        return EditedResponse(status: .created, response: PushTarget(target))
    }

    @Sendable func list(_ request: Request, context: API.Context, caller: API.Caller) async throws -> [PushTarget] {
        return try api.directory.devices(user: caller.username, namespace: caller.namespace).map(PushTarget.init)
    }

    @Sendable func unregister(_ request: Request, context: API.Context, caller: API.Caller) async throws
        -> HTTPResponse.Status
    {
        let deviceId = try context.pathParameter("deviceId")
        guard
            try await api.directory.unregister(
                user: caller.username, deviceId: deviceId, namespace: caller.namespace, actor: caller.username)
        else {
            throw APIError(.notFound, "not_found", "you have no device \(deviceId) registered")
        }
        return .noContent
    }
}
