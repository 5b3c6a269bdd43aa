import Foundation
import Muster
import MusterClient

extension RequestTemplates.Put {
    /// `PUT /api/v1/requests/{name}` (administrators).
    func run(on session: ServerSession) async throws {
        try session.requireNamespace(namespace)
        let document = try FormErrorOutput.payload(payload, json: json)
        let template = RequestTemplate(name: name, title: title, body: body, responseTopic: topic, payload: document)
        let stored = try await session.call(json: json) { try await $0.putRequest(template) }
        try Output.json(RequestTemplateStored(stored))
    }
}

extension RequestTemplates.List {
    /// `GET /api/v1/requests`.
    func run(on session: ServerSession) async throws {
        try session.requireNamespace(namespace)
        let templates = try await session.call { try await $0.requests() }
        try Self.print(templates.map(RequestTemplateStored.init), json: json)
    }
}

extension RequestTemplateStored {
    init(_ template: RequestTemplate) {
        self.init(
            name: template.name, title: template.title, body: template.body, responseTopic: template.responseTopic,
            payload: Array(template.payload.jsonData()))
    }
}
