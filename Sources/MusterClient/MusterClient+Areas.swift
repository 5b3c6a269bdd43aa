import Foundation
import MusterWire

extension MusterClient {
    /// The namespace's geofences, each an object of the Ubudu web API (`GET /api/v1/geofences`); an administrator
    /// sees the rules' server notification URLs too.
    public func geofences() async throws(MusterClientError) -> [JSONValue] {
        let request = APIRequest("GET", ["geofences"])
        return try decode([JSONValue].self, from: try await perform(request), of: request)
    }

    /// The namespace's beacon regions, each an object of the Ubudu web API (`GET /api/v1/beacons`).
    public func beacons() async throws(MusterClientError) -> [JSONValue] {
        let request = APIRequest("GET", ["beacons"])
        return try decode([JSONValue].self, from: try await perform(request), of: request)
    }

    /// Admin: defines the geofences and beacon regions of an Ubudu document (`u_geofences.json` /
    /// `u_beacons.json`), all or none (`POST /api/v1/areas`): `{"defined", "unchanged", "warnings",
    /// "countsChanged"}` — the ids written and those already so, what was accepted but changed, and the rules whose
    /// counts changed (their counters start again).
    public func importAreas(_ document: Data) async throws(MusterClientError) -> JSONValue {
        var request = APIRequest("POST", ["areas"])
        request.body = document
        request.contentType = "application/json"
        return try decode(JSONValue.self, from: try await perform(request), of: request)
    }
}
