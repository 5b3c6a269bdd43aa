import Foundation
import Hummingbird
import Muster
import MusterWire

/// `/messages/{id}/deliveries` and `/deliveries`: where the pushes of messages stand — for administrators, and for
/// a recipient their own copy's.
struct DeliveryController: APIController {
    let api: API

    func addRoutes(to routes: some RouterMethods<API.Context>) {
        routes
            .get("messages/:id/deliveries", for: .user, use: messageDeliveries)
            .get("deliveries", for: .administrator, use: list)
    }

    var deliveries: Deliveries { Deliveries(log: api.log) }

    /// Every device's delivery of the message for an administrator of the namespace it was sent in; the caller's
    /// own for its recipient; 404 (as `GET /messages/{id}`) for anyone else — an administrator of another namespace
    /// included.
    @Sendable func messageDeliveries(_ request: Request, context: API.Context, caller: API.Caller) async throws
        -> [DeliveryRecord]
    {
        let id = try NotificationController.messageId(context)
        if caller.isAdmin {
            guard try api.notifications.wasSent(id: id, namespace: caller.namespace) else {
                throw APIError(
                    .notFound, "not_found", "no message \(id) was sent in namespace \(caller.namespace)")
            }
            return try deliveries.list(namespace: caller.namespace, messageId: id).map(DeliveryRecord.init)
        }
        guard try api.notifications.message(id: id, user: caller.username, namespace: caller.namespace) != nil else {
            throw APIError(.notFound, "not_found", "you have no message \(id)")
        }
        return try deliveries.list(namespace: caller.namespace, messageId: id, user: caller.username)
            .map(DeliveryRecord.init)
    }

    /// The namespace's deliveries, filtered by `messageId`, `user` and `status`.
    @Sendable func list(_ request: Request, context: API.Context, caller: API.Caller) async throws
        -> [DeliveryRecord]
    {
        let messageId: UUID? = try request.query("messageId", "a UUID") { UUID(uuidString: $0) }
        let user = request.uri.queryParameters.get("user").map { String($0) }
        // A user who does not exist is a typo, refused as the quota's is, not answered for nobody.
        if let user, try api.directory.user(user, namespace: caller.namespace) == nil {
            throw APIError(
                .badRequest, "bad_request", "no user named \(user) in namespace \(caller.namespace)",
                fields: [.init(field: "user", message: "no such user")])
        }
        let choices = Delivery.Status.allCases.map(\.rawValue).joined(separator: ", ")
        let status: Delivery.Status? = try request.query("status", "one of \(choices)") {
            Delivery.Status(rawValue: $0)
        }
        return try deliveries.list(namespace: caller.namespace, messageId: messageId, user: user, status: status)
            .map(DeliveryRecord.init)
    }
}
