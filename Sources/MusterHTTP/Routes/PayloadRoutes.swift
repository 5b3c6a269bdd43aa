import Forms
import Foundation
import Hummingbird
import Muster

extension API {
    /// Named payloads (ArsRCSPayload): stored by administrators, referred to by `payloadName`.
    func addPayloadRoutes(to group: RouterGroup<Context>) {
        group.put("payloads/:name") { request, context in
            let caller = try context.administrator()
            let body = try await request.jsonBody()
            let result = try await payloads.put(
                try context.parameter("name"), payload: body, namespace: caller.namespace, actor: caller.username)
            return try JSONCoding.response(result)
        }

        group.get("payloads/:name") { _, context in
            let caller = try context.caller()
            let name = try context.parameter("name")
            guard let payload = try payloads.get(name, namespace: caller.namespace) else {
                throw APIError(.notFound, "not_found", "no named payload \(name)")
            }
            return JSONCoding.response(payload)
        }
    }
}
