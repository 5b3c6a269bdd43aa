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
}
