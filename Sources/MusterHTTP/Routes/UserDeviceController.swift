import Foundation
import Hummingbird
import Muster
import MusterWire

/// `/users/{name}/devices`: an administrator's view of one user's push targets (the console's user page).
struct UserDeviceController: APIController {
    let api: API

    func addRoutes(to routes: some RouterMethods<API.Context>) {
        routes.get("users/:name/devices", for: .administrator, use: devices)
    }

    @Sendable func devices(_ request: Request, context: API.Context, caller: API.Caller) async throws -> [PushTarget] {
        let name = try context.pathParameter("name")
        guard let user = try api.directory.user(name, namespace: caller.namespace) else {
            throw APIError(.notFound, "not_found", "no user \(name) in namespace \(caller.namespace)")
        }
        return try api.directory.devices(user: user.name, namespace: caller.namespace).map(PushTarget.init)
    }
}
