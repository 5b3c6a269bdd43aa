import Foundation
import Hummingbird
import Muster
import MusterWire

/// `/users/{name}/devices`: an administrator's view of one user's push targets (the console's people page), and
/// their unregistering — a lost phone gets no more pushes.
struct UserDeviceController: APIController {
    let api: API

    func addRoutes(to routes: some RouterMethods<API.Context>) {
        routes
            .get("users/:name/devices", for: .administrator, use: devices)
            .delete("users/:name/devices/:deviceId", for: .administrator, use: unregister)
    }

    @Sendable func devices(_ request: Request, context: API.Context, caller: API.Caller) async throws -> [PushTarget] {
        let user = try self.user(context, caller)
        return try api.directory.devices(user: user, namespace: caller.namespace).map(PushTarget.init)
    }

    @Sendable func unregister(_ request: Request, context: API.Context, caller: API.Caller) async throws
        -> HTTPResponse.Status
    {
        let user = try self.user(context, caller)
        let deviceId = try context.pathParameter("deviceId")
        guard
            try await api.directory.unregister(
                user: user, deviceId: deviceId, namespace: caller.namespace, actor: caller.username,
                reason: "by the administrator \(caller.username)")
        else {
            throw APIError(
                .notFound, "not_found", "\(user) has no device \(deviceId) registered",
                fields: [.init(field: "deviceId", message: "expected one of GET /api/v1/users/\(user)/devices")])
        }
        return .noContent
    }

    /// The user the path names, as stored; 404 for none of the namespace.
    private func user(_ context: API.Context, _ caller: API.Caller) throws -> String {
        let name = try context.pathParameter("name")
        guard let user = try api.directory.user(name, namespace: caller.namespace) else {
            throw APIError(.notFound, "not_found", "no user \(name) in namespace \(caller.namespace)")
        }
        return user.name
    }
}
