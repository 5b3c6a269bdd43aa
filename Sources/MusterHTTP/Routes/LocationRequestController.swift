import Foundation
import Hummingbird
import Muster
import MusterWire

/// `/location-requests`: an administrator asks a user's phones where they are; each gets a silent push through
/// the outbox, and its app answers by publishing its location.
struct LocationRequestController: APIController {
    let api: API

    func addRoutes(to routes: some RouterMethods<API.Context>) {
        routes.post("location-requests", for: .administrator, use: request)
    }

    /// 201 with the request and the devices asked; 404 for an unknown user; 400 when none of the user's devices
    /// can be asked (nothing is recorded then).
    @Sendable func request(_ request: Request, context: API.Context, caller: API.Caller) async throws
        -> EditedResponse<LocationRequest>
    {
        let body = try await request.decode(as: LocationRequestBody.self, context: context)
        let (recorded, devices) = try await LocationRequests(log: api.log).request(
            user: body.user, reason: body.reason, namespace: caller.namespace, actor: caller.username)
        return EditedResponse(status: .created, response: LocationRequest(recorded, devices: devices))
    }
}
