import Foundation
import Hummingbird
import Muster

/// `POST /areas`: an Ubudu document of geofences and beacon regions (`u_geofences`, `u_beacons`) defined all or
/// none, as `muster areas import` does on a data directory — administrators.
struct AreaImportController: APIController {
    let api: API

    func addRoutes(to routes: some RouterMethods<API.Context>) {
        routes.post("areas", for: .administrator, use: importAreas)
    }

    @Sendable func importAreas(_ request: Request, context: API.Context, caller: API.Caller) async throws
        -> Areas.DefineResult
    {
        try await api.areas.importAreas(
            try await request.jsonBody(context: context), namespace: caller.namespace, actor: caller.username)
    }
}

extension Areas.DefineResult: ResponseEncodable {}
