import Foundation
import Hummingbird
import Muster

extension API {
    /// The caller's push targets: register (or update), list, unregister.
    func addDeviceRoutes(to group: RouterGroup<Context>) {
        group.post("devices") { request, context in
            let caller = try context.caller()
            struct Device: Decodable {
                var deviceId: String
                var deviceName: String
                var platform: String
                var token: String?
            }
            let device = try await request.decode(Device.self)
            guard let platform = PushTargetRegistered.Platform(rawValue: device.platform) else {
                let choices = PushTargetRegistered.Platform.allCases.map(\.rawValue).joined(separator: ", ")
                throw APIError(
                    .badRequest, "bad_request", "platform \(device.platform) is not one of \(choices)",
                    fields: [.init(field: "platform", message: "expected one of \(choices)")])
            }
            let target = PushTargetRegistered(
                user: caller.username, deviceId: device.deviceId, deviceName: device.deviceName, platform: platform,
                token: device.token)
            try await directory.register(target, namespace: caller.namespace, actor: caller.username)
            return try JSONCoding.response(target, status: .created)
        }

        group.get("devices") { _, context in
            let caller = try context.caller()
            return try JSONCoding.response(try directory.devices(user: caller.username, namespace: caller.namespace))
        }

        group.delete("devices/:deviceId") { _, context in
            let caller = try context.caller()
            let deviceId = try context.parameter("deviceId")
            guard
                try await directory.unregister(
                    user: caller.username, deviceId: deviceId, namespace: caller.namespace, actor: caller.username)
            else {
                throw APIError(.notFound, "not_found", "you have no device \(deviceId) registered")
            }
            return emptyResponse(.noContent)
        }
    }
}
