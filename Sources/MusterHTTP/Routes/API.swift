import EventLog
import Foundation
import Hummingbird
import Muster

/// The domain behind the routes: each route reads the request, calls one of these, and writes the
/// answer. Nothing here decides anything the domain does not.
struct API: Sendable {
    typealias Context = MusterRequestContext

    let log: EventLog
    let configuration: ServerConfiguration
    let authenticator: Authenticator
    let metrics: ServerMetrics
    /// One engine for the server's lifetime: it keeps the areas compiled for lookups.
    let rules: RuleEngine
    var sessions: Sessions { authenticator.sessions }
    var directory: Directory { Directory(log: log) }
    var documents: Documents { Documents(log: log) }
    var payloads: NamedPayloads { NamedPayloads(log: log) }
    var requests: Requests { Requests(log: log) }
    var settings: Settings { Settings(log: log) }
    var areas: Areas { Areas(log: log) }

    /// Notifications; a send reads the namespace's push size limit in its own transaction.
    var notifications: Notifications { Notifications(log: log) }

    /// Every route of `/api/v1` and the operations routes.
    func addRoutes(to router: Router<Context>) {
        addOperationsRoutes(to: router)
        addUbuduRoutes(to: router)
        let v1 = router.group("api/v1")
        addAuthRoutes(to: v1)
        addUserRoutes(to: v1)
        addDeviceRoutes(to: v1)
        addNotificationRoutes(to: v1)
        addRequestRoutes(to: v1)
        addPayloadRoutes(to: v1)
        addDocumentRoutes(to: v1)
        addTopicRoutes(to: v1)
        addEventRoutes(to: v1)
        addAdministrationRoutes(to: v1)
        addAreaRoutes(to: v1)
        addGeotriggerRoutes(to: v1)
    }
}

/// A path parameter that the router guarantees.
extension MusterRequestContext {
    func parameter(_ name: String) throws -> String {
        guard let value = parameters.get(name) else {
            throw APIError(.badRequest, "bad_request", "the path is missing {\(name)}")
        }
        return value
    }

    /// The rest of the path after a `**` segment, percent-decoded.
    func remainingPath() -> String {
        parameters.getCatchAll().map { $0.removingPercentEncoding ?? String($0) }.joined(separator: "/")
    }
}

/// An empty answer with a status.
func emptyResponse(_ status: HTTPResponse.Status) -> Response { Response(status: status) }
