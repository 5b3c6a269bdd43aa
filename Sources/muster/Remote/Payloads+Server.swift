import Foundation
import MusterClient

extension Payloads.Put {
    /// `PUT /api/v1/payloads/{name}` (administrators).
    func run(on session: ServerSession) async throws {
        try session.requireNamespace(namespace)
        let document = try FormErrorOutput.payload(payload, json: json)
        let stored = try await session.call(json: json) { try await $0.putPayload(name: name, document) }
        try Output.json(stored)
    }
}

extension Payloads.Get {
    /// `GET /api/v1/payloads/{name}`: the payload's JSON, keys sorted.
    func run(on session: ServerSession) async throws {
        try session.requireNamespace(namespace)
        let document = try await session.call { try await $0.payload(name: name) }
        Output.line(document.description)
    }
}
