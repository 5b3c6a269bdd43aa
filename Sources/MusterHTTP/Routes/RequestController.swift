import Forms
import Foundation
import Hummingbird
import Muster
import MusterWire

/// `/requests`: user-initiated request templates (ArsRCSRequest) — administrators store them, users list and
/// answer them.
struct RequestController: APIController {
    let api: API

    func addRoutes(to routes: some RouterMethods<API.Context>) {
        routes
            .get("requests", for: .user, use: list)
            .get("requests/:name", for: .user, use: template)
            .put("requests/:name", for: .administrator, use: put)
            .delete("requests/:name", for: .administrator, use: remove)
            .post("requests/:name/response", for: .user, use: respond)
    }

    /// Removes a template: it is no longer offered, and answering it is refused.
    @Sendable func remove(_ request: Request, context: API.Context, caller: API.Caller) async throws
        -> HTTPResponse.Status
    {
        try await api.requests.remove(
            try context.pathParameter("name"), namespace: caller.namespace, actor: caller.username)
        return .noContent
    }

    @Sendable func list(_ request: Request, context: API.Context, caller: API.Caller) async throws -> [RequestTemplate]
    {
        return try api.requests.list(namespace: caller.namespace).map { try RequestTemplate($0) }
    }

    @Sendable func template(_ request: Request, context: API.Context, caller: API.Caller) async throws
        -> RequestTemplate
    {
        let name = try context.pathParameter("name")
        guard let template = try api.requests.get(name, namespace: caller.namespace) else {
            throw APIError(.notFound, "not_found", "no request template \(name)")
        }
        return try RequestTemplate(template)
    }

    @Sendable func put(_ request: Request, context: API.Context, caller: API.Caller) async throws -> RequestTemplate {
        let template = try await request.decode(as: RequestTemplateBody.self, context: context)
        let stored = try await api.requests.put(
            try context.pathParameter("name"), title: template.title, body: template.body,
            responseTopic: template.responseTopic, payload: template.payload.jsonData(),
            namespace: caller.namespace, actor: caller.username)
        return try RequestTemplate(stored.template, warnings: stored.warnings)
    }

    @Sendable func respond(_ request: Request, context: API.Context, caller: API.Caller) async throws -> EditedResponse<
        JSONText
    > {
        let answer = try await request.decode(as: AnswerBody.self, context: context)
        let recorded = try await api.notifications.respond(
            toRequest: try context.pathParameter("name"), answers: try answer.answers(),
            as: answer.respondent(caller))
        return EditedResponse(status: recorded.isRepeat ? .ok : .created, response: JSONText(recorded.json))
    }
}
