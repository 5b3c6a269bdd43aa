import Foundation
import MusterWire

extension MusterClient {
    /// Admin: the namespace's sends, newest first, at most `limit` (1 to 1,000), each with how many of its messages
    /// were answered, withdrawn, or still wait (`GET /api/v1/sends`).
    public func sends(limit: Int = 50) async throws(MusterClientError) -> [SendOverview] {
        var request = APIRequest("GET", ["sends"])
        request.query = [URLQueryItem(name: "limit", value: String(limit))]
        return try decode([SendOverview].self, from: try await perform(request), of: request)
    }

    /// Admin: one send (its `sendId`, as ``send(title:body:payload:to:source:mqtt:)`` answered it) with each
    /// recipient's message and where it stands (`GET /api/v1/sends/{id}`); `not_found` for no such send.
    public func sendOverview(id: UUID) async throws(MusterClientError) -> SendOverview {
        let request = APIRequest("GET", ["sends", Self.wire(id)])
        return try decode(SendOverview.self, from: try await perform(request), of: request)
    }
}
