import EventLog
import Foundation
import Geo
import Hummingbird
import Muster

/// `/geofences` or `/beacons`: one kind of area in the Ubudu format — defined and removed by administrators,
/// read by every user (without the server hooks unless an administrator).
struct AreaController: APIController {
    let api: API
    let kind: AreaKind

    func addRoutes(to routes: some RouterMethods<API.Context>) {
        routes
            .put("\(kind.rawValue)/:id", for: .administrator, use: define)
            .get("\(kind.rawValue)/:id", for: .user, use: area)
            .get(RouterPath(kind.rawValue), for: .user, use: list)
            .delete("\(kind.rawValue)/:id", for: .administrator, use: remove)
    }

    @Sendable func define(_ request: Request, context: API.Context, caller: API.Caller) async throws -> EditedResponse<
        JSONText
    > {
        let (area, warnings) = try kind.read(
            try await request.jsonBody(context: context), id: context.pathParameter("id"))
        let result = try await api.areas.define([area], namespace: caller.namespace, actor: caller.username)
        return EditedResponse(
            status: result.defined.isEmpty ? .ok : .created,
            response: JSONText(UbuduFormat.json(area, warnings: warnings)))
    }

    @Sendable func area(_ request: Request, context: API.Context, caller: API.Caller) async throws -> JSONText {
        let found = try area(context.pathParameter("id"), namespace: caller.namespace)
        return JSONText(UbuduFormat.json(caller.isAdmin ? found : found.withoutServerHooks))
    }

    @Sendable func list(_ request: Request, context: API.Context, caller: API.Caller) async throws -> JSONText {
        let listed = try api.areas.list(namespace: caller.namespace).filter(kind.holds)
        return JSONText(UbuduFormat.json(caller.isAdmin ? listed : listed.map(\.withoutServerHooks)))
    }

    @Sendable func remove(_ request: Request, context: API.Context, caller: API.Caller) async throws
        -> HTTPResponse.Status
    {
        let found = try area(context.pathParameter("id"), namespace: caller.namespace)
        try await api.areas.remove(
            id: found.id, kind: kind.area, namespace: caller.namespace, actor: caller.username)
        return .noContent
    }

    /// The area `id` of this kind, or 404.
    func area(_ id: String, namespace: String) throws -> Area {
        guard let area = try api.areas.area(id: id, kind: kind.area, namespace: namespace) else {
            throw APIError(
                .notFound, "not_found", "no \(kind.singular) \(String(reflecting: id)) in namespace \(namespace)")
        }
        return area
    }
}

extension Area {
    /// The area as shown to someone who is not an administrator: every rule's server hook (`notify_server`)
    /// emptied, which the Ubudu format reads as "no hook", since its URL may carry an API key.
    var withoutServerHooks: Area {
        var area = self
        for index in area.rules.indices { area.rules[index].action.notifyServer = "" }
        return area
    }
}

/// The two kinds of areas the API serves under their own paths.
enum AreaKind: String, CaseIterable {
    case geofences, beacons

    var singular: String { area.description }

    /// The domain's kind of area this path serves.
    var area: Area.Kind { self == .geofences ? .geofence : .beacon }

    /// A `kind` field or parameter: nil when absent, else `geofence` or `beacon`.
    static func domain(_ text: String?, field: String = "kind") throws -> Area.Kind? {
        guard let text else { return nil }
        guard let kind = Area.Kind(argument: text) else {
            throw APIError(
                .badRequest, "bad_request", "\(field): expected geofence or beacon, not \(String(reflecting: text))",
                fields: [.init(field: field, message: "expected geofence or beacon")])
        }
        return kind
    }

    func holds(_ area: Area) -> Bool {
        if case .beacon = area.region { return self == .beacons }
        return self == .geofences
    }

    /// One area in the Ubudu format, and what of it is stored otherwise than given; its `id` is the path's (a
    /// different one in the body is refused).
    func read(_ body: Data, id: String) throws -> (Area, warnings: [String]) {
        guard let object = try? UbuduFormat.jsonObject(body) as? [String: Any] else {
            throw APIError(.badRequest, "bad_request", "the body is not a JSON object describing one \(singular)")
        }
        if let given = object["id"], "\(given)" != id {
            throw APIError(
                .badRequest, "bad_request", "id: the body says \(given) but the path says \(id)",
                fields: [.init(field: "id", message: "expected \(id) or nothing")])
        }
        return try UbuduFormat.readArea(object, beacon: self == .beacons, id: id)
    }
}
