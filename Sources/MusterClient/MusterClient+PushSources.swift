import Foundation
import MusterWire

extension MusterClient {
    /// Admin: configures (or reconfigures) a push source (`POST /api/v1/push/sources`); returns it as stored, its
    /// secret replaced by a fingerprint. Throws `bad_request` naming the member at fault (`key`, `endpoint`, …).
    ///
    /// - Parameter body: the kind and the members it needs; a Web Push source gets its key pair from the server
    ///   (`details.publicKey`).
    public func configurePushSource(_ body: PushSourceBody) async throws(MusterClientError) -> PushSource {
        let request = try APIRequest("POST", ["push", "sources"], json: body)
        return try decode(PushSource.self, from: try await perform(request), of: request)
    }

    /// Admin: the namespace's push sources, by name (`GET /api/v1/push/sources`).
    public func pushSources() async throws(MusterClientError) -> [PushSource] {
        let request = APIRequest("GET", ["push", "sources"])
        return try decode([PushSource].self, from: try await perform(request), of: request)
    }

    /// Admin: removes a push source and erases its secret (`DELETE /api/v1/push/sources/{name}`); `not_found`
    /// when there is none of that name.
    public func removePushSource(name: String) async throws(MusterClientError) {
        _ = try await perform(APIRequest("DELETE", ["push", "sources", name]))
    }

    /// Admin: sends a test push through the source to each of the user's devices it reaches, at once
    /// (`POST /api/v1/push/sources/{name}/test`); what each device's provider answered.
    public func testPushSource(name: String, user: String) async throws(MusterClientError) -> [PushTestResult] {
        let request = try APIRequest("POST", ["push", "sources", name, "test"], json: PushTestBody(user: user))
        return try decode([PushTestResult].self, from: try await perform(request), of: request)
    }

    /// Admin: the namespace's deliveries, each filter optional (`GET /api/v1/deliveries`).
    ///
    /// - Parameters:
    ///   - messageId: only this message's.
    ///   - user: only this user's.
    ///   - status: only those in this status.
    public func deliveries(
        messageId: UUID? = nil, user: String? = nil, status: DeliveryRecord.Status? = nil
    ) async throws(MusterClientError) -> [DeliveryRecord] {
        var request = APIRequest("GET", ["deliveries"])
        request.query = [
            messageId.map { URLQueryItem(name: "messageId", value: $0.uuidString.lowercased()) },
            user.map { URLQueryItem(name: "user", value: $0) },
            status.map { URLQueryItem(name: "status", value: $0.rawValue) },
        ].compactMap { $0 }
        return try decode([DeliveryRecord].self, from: try await perform(request), of: request)
    }

    /// Where the pushes of a message stand (`GET /api/v1/messages/{id}/deliveries`): every device's for an
    /// administrator, the user's own devices' for its recipient; `not_found` for anyone else.
    public func messageDeliveries(id: UUID) async throws(MusterClientError) -> [DeliveryRecord] {
        let request = APIRequest("GET", ["messages", id.uuidString.lowercased(), "deliveries"])
        return try decode([DeliveryRecord].self, from: try await perform(request), of: request)
    }

    /// The Web Push application server key to subscribe a browser with (`GET /api/v1/push/vapid-public-key`): the
    /// namespace's first Web Push source's, or the named one's; `not_found` when there is none.
    public func vapidPublicKey(source: String? = nil) async throws(MusterClientError) -> VAPIDPublicKey {
        var request = APIRequest("GET", ["push", "vapid-public-key"])
        request.query = source.map { [URLQueryItem(name: "source", value: $0)] } ?? []
        return try decode(VAPIDPublicKey.self, from: try await perform(request), of: request)
    }

    /// Admin: asks a user's phones where they are (`POST /api/v1/location-requests`): each APNs or FCM device a
    /// source reaches gets a silent push, and its app publishes its location. `bad_request` naming `user` when
    /// none can be asked.
    public func requestLocation(user: String, reason: String? = nil) async throws(MusterClientError)
        -> LocationRequest
    {
        let request = try APIRequest(
            "POST", ["location-requests"], json: LocationRequestBody(user: user, reason: reason))
        return try decode(LocationRequest.self, from: try await perform(request), of: request)
    }
}
