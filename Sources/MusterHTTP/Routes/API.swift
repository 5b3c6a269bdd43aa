import EventLog
import Foundation
import Hummingbird
import MQTTBridge
import Muster

/// The domain behind the routes: each route reads the request, calls one of these, and writes the
/// answer. Nothing here decides anything the domain does not.
struct API: Sendable {
    typealias Context = MusterRequestContext
    /// Who is calling: the principal of the bearer token.
    typealias Caller = Sessions.Principal

    let log: EventLog
    let configuration: ServerConfiguration
    let authenticator: Authenticator
    let metrics: ServerMetrics
    /// One engine for the server's lifetime: it keeps the areas compiled for lookups.
    let rules: RuleEngine
    /// The MQTT bridge (`serve --mqtt`); nil without one.
    let mqtt: MQTTBridge?
    var sessions: Sessions { authenticator.sessions }
    var directory: Directory { Directory(log: log) }
    var documents: Documents { Documents(log: log) }
    var payloads: NamedPayloads { NamedPayloads(log: log) }
    var requests: Requests { Requests(log: log) }
    var settings: Settings { Settings(log: log) }
    var areas: Areas { Areas(log: log) }

    /// Sends, inboxes and answers.
    var notifications: Notifications { Notifications(log: log) }

    /// Every route of `/api/v1`, the Ubudu feeds and the operations routes.
    func addRoutes(to router: Router<Context>) {
        OperationsController(api: self).addRoutes(to: router)
        UbuduController(api: self).addRoutes(to: router)
        WebAppController(options: configuration.webApp).addRoutes(to: router)
        let v1: [any APIController] =
            [
                AuthController(api: self), UserController(api: self), UserDeviceController(api: self),
                DeviceController(api: self),
                NotificationController(api: self), RequestController(api: self), PayloadController(api: self),
                DocumentController(api: self), TopicController(api: self), EventController(api: self),
                AdministrationController(api: self), PushSourceController(api: self), DeliveryController(api: self),
                SendController(api: self),
                LocationRequestController(api: self), MQTTController(api: self),
            ] + AreaKind.allCases.map { AreaController(api: self, kind: $0) } + [AreaImportController(api: self)]
            + [ReportController(api: self), GeotriggerController(api: self), NoticeController(api: self)]
            + [SessionController(api: self)]
        let group = router.group("/api/v1")
        for controller in v1 { controller.addRoutes(to: group) }
    }
}

extension MusterRequestContext {
    /// The path parameter `name` (`:name` in the route), percent-decoded: `/groups/%C3%A9quipe` names the group
    /// `équipe`, `/devices/my%20phone` the device `my phone`, `/push/sources/web%2Fpush` the source `web/push`.
    func pathParameter(_ name: String) throws -> String {
        let raw = try parameters.require(name)
        guard let decoded = raw.removingPercentEncoding else {
            throw APIError(
                .badRequest, "bad_request",
                "the path's \(name) \(String(reflecting: raw)) is not valid percent-encoding",
                fields: [.init(field: name, message: "expected UTF-8 bytes percent-encoded as %XX")])
        }
        return decoded
    }

    /// The rest of the path after a `**` segment, percent-decoded.
    func remainingPath() -> String {
        parameters.getCatchAll().map { $0.removingPercentEncoding ?? String($0) }.joined(separator: "/")
    }
}
