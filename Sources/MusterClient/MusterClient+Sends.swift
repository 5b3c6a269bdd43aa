import Foundation
import MusterWire

extension MusterClient {
    /// Admin: the namespace's sends, newest first, at most `limit` (1 to 1,000), each with how many of its messages
    /// were answered, withdrawn, or still wait (`GET /api/v1/sends`); with `before` (a listed send's id), the sends
    /// older than that one — the next page.
    public func sends(limit: Int = 50, before: UUID? = nil) async throws(MusterClientError) -> [SendOverview] {
        var request = APIRequest("GET", ["sends"])
        request.query = [URLQueryItem(name: "limit", value: String(limit))]
        if let before { request.query.append(URLQueryItem(name: "before", value: Self.wire(before))) }
        return try decode([SendOverview].self, from: try await perform(request), of: request)
    }

    /// Admin: one send (its `sendId`, as ``send(title:body:payload:to:source:mqtt:)`` answered it) with a page of
    /// its recipients' messages and where each stands (`GET /api/v1/sends/{id}`): at most `limit` (1 to 10,000) from
    /// the `from`th recipient, only those in `state` when given; the answer's `nextFrom` is the next page's `from`.
    /// `not_found` for no such send.
    public func sendOverview(id: UUID, state: SendOverview.State? = nil, from: Int = 0, limit: Int = 1000)
        async throws(MusterClientError) -> SendOverview
    {
        var request = APIRequest("GET", ["sends", Self.wire(id)])
        request.query = [
            URLQueryItem(name: "from", value: String(from)), URLQueryItem(name: "limit", value: String(limit)),
        ]
        if let state { request.query.append(URLQueryItem(name: "state", value: state.rawValue)) }
        return try decode(SendOverview.self, from: try await perform(request), of: request)
    }

    /// Admin: withdraws every message of the send not answered yet, in one step (`POST /api/v1/sends/{id}/withdraw`);
    /// answers how many. `not_found` for no such send.
    public func withdrawPending(ofSend id: UUID) async throws(MusterClientError) -> SendWithdrawal {
        let request = APIRequest("POST", ["sends", Self.wire(id), "withdraw"])
        return try decode(SendWithdrawal.self, from: try await perform(request), of: request)
    }
}
