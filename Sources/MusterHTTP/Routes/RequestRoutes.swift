import Forms
import Foundation
import Hummingbird
import Muster
import MusterWire

extension API {
    /// User-initiated request templates (ArsRCSRequest): administrators store them, users list and answer them.
    func addRequestRoutes(to group: RouterGroup<Context>) {
        group.get("requests") { _, context in
            let caller = try context.caller()
            return try JSONCoding.response(try requests.list(namespace: caller.namespace).map(RequestView.init))
        }

        group.get("requests/:name") { _, context in
            let caller = try context.caller()
            let name = try context.parameter("name")
            guard let template = try requests.get(name, namespace: caller.namespace) else {
                throw APIError(.notFound, "not_found", "no request template \(name)")
            }
            return try JSONCoding.response(try RequestView(template))
        }

        group.put("requests/:name") { request, context in
            let caller = try context.administrator()
            struct Template: Decodable {
                var title: String
                var body: String
                var responseTopic: String
                var payload: JSONValue
            }
            let template = try await request.decode(Template.self)
            let stored = try await requests.put(
                try context.parameter("name"), title: template.title, body: template.body,
                responseTopic: template.responseTopic, payload: template.payload.jsonData(),
                namespace: caller.namespace, actor: caller.username)
            return try JSONCoding.response(try RequestView(stored))
        }

        group.post("requests/:name/response") { request, context in
            let caller = try context.caller()
            let answer = try await request.decode(Answer.self)
            let recorded = try await notifications.respond(
                toRequest: try context.parameter("name"), user: caller.username, deviceId: answer.deviceId,
                deviceName: answer.deviceName, submitValue: answer.submitValue ?? 0, answers: try answer.answers(),
                at: answer.location.map { .init(latitude: $0.lat, longitude: $0.lng) }, namespace: caller.namespace,
                actor: caller.username)
            return JSONCoding.response(recorded.json, status: .created)
        }
    }
}

/// A request template as the app lists it.
struct RequestView: Encodable {
    var name: String
    var title: String
    var body: String
    var responseTopic: String
    var payload: JSONValue

    init(_ template: RequestTemplateStored) throws {
        name = template.name
        title = template.title
        body = template.body
        responseTopic = template.responseTopic
        payload = try JSONValue(json: Data(template.payload))
    }
}
