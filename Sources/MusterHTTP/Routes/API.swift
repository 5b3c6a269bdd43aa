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

    /// Every route of `/api/v1`, the Ubudu feeds and the operations routes.
    func addRoutes(to router: Router<Context>) {
        router.addRoutes(OperationsController(api: self).endpoints)
        router.addRoutes(UbuduController(api: self).endpoints)
        let v1: [RouteCollection<Context>] =
            [
                AuthController(api: self).endpoints, UserController(api: self).endpoints,
                DeviceController(api: self).endpoints, NotificationController(api: self).endpoints,
                RequestController(api: self).endpoints, PayloadController(api: self).endpoints,
                DocumentController(api: self).endpoints, TopicController(api: self).endpoints,
                EventController(api: self).endpoints, AdministrationController(api: self).endpoints,
            ] + AreaKind.allCases.map { AreaController(api: self, kind: $0).endpoints }
            + [ReportController(api: self).endpoints, GeotriggerController(api: self).endpoints]
        for collection in v1 { router.addRoutes(collection, atPath: "/api/v1") }
    }
}

extension MusterRequestContext {
    /// The rest of the path after a `**` segment, percent-decoded.
    func remainingPath() -> String {
        parameters.getCatchAll().map { $0.removingPercentEncoding ?? String($0) }.joined(separator: "/")
    }
}
