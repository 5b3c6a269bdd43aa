import EventLog
import Forms
import Foundation
import Hummingbird
import Muster
import MusterWire

extension API {
    /// `PUT|GET|DELETE /api/v1/geotriggers/{id}` and `GET /api/v1/geotriggers`: fence geotriggers.
    func addGeotriggerRoutes(to group: RouterGroup<Context>) {
        group.put("geotriggers/:id") { request, context in
            let caller = try context.administrator()
            let geotrigger = try Geotrigger.read(try await request.jsonBody(), id: try context.parameter("id"))
            let changed = try await Geotriggers(log: log).define(
                geotrigger, namespace: caller.namespace, actor: caller.username)
            return JSONCoding.response(geotrigger.json.jsonData(), status: changed ? .created : .ok)
        }
        group.get("geotriggers/:id") { _, context in
            let caller = try context.caller()
            let id = try context.parameter("id")
            guard let geotrigger = try Geotriggers(log: log).geotrigger(id: id, namespace: caller.namespace) else {
                throw APIError(
                    .notFound, "not_found", "no geotrigger \(String(reflecting: id)) in namespace \(caller.namespace)")
            }
            return JSONCoding.response(geotrigger.json.jsonData())
        }
        group.get("geotriggers") { _, context in
            let caller = try context.caller()
            let all = try Geotriggers(log: log).list(namespace: caller.namespace)
            return JSONCoding.response(JSONValue.array(all.map(\.json)).jsonData())
        }
        group.delete("geotriggers/:id") { _, context in
            let caller = try context.administrator()
            try await Geotriggers(log: log).remove(
                id: try context.parameter("id"), namespace: caller.namespace, actor: caller.username)
            return emptyResponse(.noContent)
        }
    }
}
