import Foundation
import MusterClient

extension Respond {
    /// `POST /api/v1/messages/{id}/response`, or with `--request` `POST /api/v1/requests/{name}/response`, as the
    /// logged-in user.
    func run(on session: ServerSession) async throws {
        try session.requireSelf(user, option: "--user", why: "a response is its user's own")
        try session.requireNamespace(namespace)
        let answers = try FormErrorOutput.values(valuesArgument, json: json)
        var location: GeoPoint?
        if let latitude, let longitude { location = GeoPoint(latitude: latitude, longitude: longitude) }
        let response = try await session.call(json: json) { client in
            if let request {
                try await client.respond(
                    toRequest: request, deviceId: deviceId, deviceName: deviceName, submitValue: submitValue,
                    values: answers, location: location)
            } else {
                try await client.respond(
                    messageId: UUID(uuidString: messageId ?? "")!, deviceId: deviceId, deviceName: deviceName,
                    submitValue: submitValue, values: answers, location: location)
            }
        }
        try Output.json(response)
    }
}
