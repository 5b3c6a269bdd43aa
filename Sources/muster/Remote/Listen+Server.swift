import Foundation
import MusterClient

extension Listen {
    /// `GET /api/v1/topics/{filter…}` (administrators): Server-Sent Events, printed as the local verb prints them.
    func run(on session: ServerSession) async throws {
        try session.requireNamespace(namespace)
        // The stream reconnects quietly; an unreachable server or a dead login should fail at once instead.
        let verified = await session.client.verifyAuthToken()
        if let error = verified.error { throw session.failure(error) }
        // `--from P` is inclusive; the stream resumes after a position.
        let events = session.client.topic(topic, after: from.map { String(max($0, 1) - 1) })
        try await Self.print(until: StopSignal()) { out in
            do {
                for try await delivery in events {
                    switch delivery.event {
                    case .response(let response): try out.line(Array(try MusterJSON.encoder().encode(response)))
                    case .publish(let document): try out.line(Array(document.jsonData()))
                    }
                    try out.flush()
                }
            } catch let error as MusterClientError {
                throw session.failure(error)
            }
        }
    }
}
