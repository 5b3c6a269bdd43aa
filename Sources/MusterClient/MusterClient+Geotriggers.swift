import Foundation
import MusterWire

extension MusterClient {
    /// Admin: creates or replaces a fence geotrigger (`PUT /api/v1/geotriggers/{id}`); returns it as stored, with
    /// `"monitor":"running"|"stopped"`. Throws `bad_request` naming the member at fault (`messageExpression: line
    /// 1 …`), `conflict` when the message expression would change while the monitor runs.
    ///
    /// - Parameters:
    ///   - id: the geotrigger's id.
    ///   - geotrigger: `{"name","fences","rule","bufferDistance","messageExpression","requestedActions"}`.
    @discardableResult
    public func putGeotrigger(id: String, _ geotrigger: JSONValue) async throws(MusterClientError) -> JSONValue {
        let request = try APIRequest("PUT", ["geotriggers", id], json: geotrigger)
        return try decode(JSONValue.self, from: try await perform(request), of: request)
    }

    /// The namespace's geotriggers, by id, each with its `monitor` (`GET /api/v1/geotriggers`).
    public func geotriggers() async throws(MusterClientError) -> [JSONValue] {
        let request = APIRequest("GET", ["geotriggers"])
        return try decode([JSONValue].self, from: try await perform(request), of: request)
    }

    /// One geotrigger with its `monitor` (`GET /api/v1/geotriggers/{id}`); `not_found` when there is none.
    public func geotrigger(id: String) async throws(MusterClientError) -> JSONValue {
        let request = APIRequest("GET", ["geotriggers", id])
        return try decode(JSONValue.self, from: try await perform(request), of: request)
    }

    /// Admin: removes a geotrigger and its monitor (`DELETE /api/v1/geotriggers/{id}`).
    public func removeGeotrigger(id: String) async throws(MusterClientError) {
        _ = try await perform(APIRequest("DELETE", ["geotriggers", id]))
    }

    /// Admin: starts the geotrigger's monitor (`POST /api/v1/geotriggers/{id}/start`): its fence crossings notify
    /// again. Starting a running monitor changes nothing.
    public func startGeotriggerMonitor(id: String) async throws(MusterClientError) -> GeotriggerMonitor {
        let request = APIRequest("POST", ["geotriggers", id, "start"])
        return try decode(GeotriggerMonitor.self, from: try await perform(request), of: request)
    }

    /// Admin: stops the geotrigger's monitor (`POST /api/v1/geotriggers/{id}/stop`): its crossings are recorded
    /// and notify no one until it is started again.
    public func stopGeotriggerMonitor(id: String) async throws(MusterClientError) -> GeotriggerMonitor {
        let request = APIRequest("POST", ["geotriggers", id, "stop"])
        return try decode(GeotriggerMonitor.self, from: try await perform(request), of: request)
    }
}
