import EventLog
import Foundation
import Hummingbird
import Muster
import MusterWire

/// The application side of the rules (seed 004): `/devices/{id}/notices` (the area notifications waiting for
/// the device's app), `/notices/{id}/perform` and `/notices/{id}/dismiss`, `/devices/{id}/events`, the
/// device's live stream (areas entered and left, positions, area notifications, trace messages), and
/// `/devices/{id}/trace-logging`, whether that stream carries the trace messages.
struct NoticeController: APIController {
    let api: API
    var notices: AreaNotices { AreaNotices(engine: api.rules) }

    func addRoutes(to routes: some RouterMethods<API.Context>) {
        routes
            .get("devices/:deviceId/notices", for: .user, use: pending)
            .get("devices/:deviceId/events", for: .user, use: events)
            .get("devices/:deviceId/trace-logging", for: .user, use: traceLogging)
            .put("devices/:deviceId/trace-logging", for: .user, use: setTraceLogging)
            .post("notices/:id/perform", for: .user, use: perform)
            .post("notices/:id/dismiss", for: .user, use: dismiss)
    }

    @Sendable func pending(_ request: Request, context: API.Context, caller: API.Caller) async throws
        -> [AreaNotification]
    {
        let deviceId = try context.pathParameter("deviceId")
        return try notices.pending(user: caller.username, deviceId: deviceId, namespace: caller.namespace)
            .map(AreaNotification.init)
    }

    @Sendable func perform(_ request: Request, context: API.Context, caller: API.Caller) async throws
        -> NoticeOutcome
    {
        let id = try Self.noticeId(context)
        let (performed, answer) = try await notices.perform(id, user: caller.username, namespace: caller.namespace)
        return NoticeOutcome(
            state: "performed", id: id, messageId: performed.messageId, serverURL: performed.serverURL,
            outcomes: performed.serverURL == nil ? nil : answer.outcomes)
    }

    @Sendable func dismiss(_ request: Request, context: API.Context, caller: API.Caller) async throws
        -> NoticeOutcome
    {
        let id = try Self.noticeId(context)
        try await notices.dismiss(id, user: caller.username, namespace: caller.namespace)
        return NoticeOutcome(state: "dismissed", id: id)
    }

    /// The device's live stream; `trace=true|false` overrides the device's trace logging for this stream.
    @Sendable func events(_ request: Request, context: API.Context, caller: API.Caller) async throws -> Response {
        let deviceId = try context.pathParameter("deviceId")
        let trace = try request.query("trace", "true or false") { ["true": true, "false": false][$0] }
        let changes = notices.deviceEvents(
            user: caller.username, deviceId: deviceId, namespace: caller.namespace,
            from: try EventStream.start(request, head: api.log.head), trace: trace)
        let events = changes.map { event in try ServerSentEvent(event) }
        return api.liveStream(events, context: context, for: .user)
    }

    @Sendable func traceLogging(_ request: Request, context: API.Context, caller: API.Caller) async throws
        -> DeviceTraceLogging
    {
        let deviceId = try context.pathParameter("deviceId")
        let trace = try notices.traceLogging(user: caller.username, deviceId: deviceId, namespace: caller.namespace)
        return DeviceTraceLogging(deviceId: deviceId, trace)
    }

    /// Turns the caller's device's trace logging on or off, or back to the namespace's setting (`null`).
    @Sendable func setTraceLogging(_ request: Request, context: API.Context, caller: API.Caller) async throws
        -> DeviceTraceLogging
    {
        let deviceId = try context.pathParameter("deviceId")
        let body = try await request.decode(as: TraceLoggingBody.self, context: context)
        let trace = try await notices.setTraceLogging(
            body.enabled, user: caller.username, deviceId: deviceId, namespace: caller.namespace)
        return DeviceTraceLogging(deviceId: deviceId, trace)
    }

    /// The path's `{id}` as a notice id; a 400 naming it when it is not a UUID.
    static func noticeId(_ context: API.Context) throws -> UUID {
        guard let id = context.parameters.get("id", as: UUID.self) else {
            throw APIError(
                .badRequest, "bad_request", "notice id \(context.parameters.get("id") ?? "") is not a UUID",
                fields: [.init(field: "id", message: "expected a UUID such as 3f2c1a9e-…")])
        }
        return id
    }
}

extension ServerSentEvent {
    /// A device's live event as the stream sends it.
    init(_ event: AreaNotices.DeviceEvent) throws {
        let encoder = MusterJSON.encoder()
        switch event.change {
        case .areaEntered(let transition), .areaExited(let transition):
            let crossing = AreaCrossing(
                area: transition.area, kind: transition.kind, trigger: transition.trigger,
                source: transition.source.rawValue, at: Timestamp.iso8601(microseconds: transition.at),
                latitude: transition.latitude, longitude: transition.longitude, proximity: transition.proximity)
            let name = transition.trigger == "on_exit" ? "areaExited" : "areaEntered"
            self.init(id: event.position, event: name, data: try encoder.encode(crossing))
        case .positionChanged(let fix):
            let position = PositionChange(
                latitude: fix.latitude, longitude: fix.longitude, accuracy: fix.accuracy,
                at: Timestamp.iso8601(microseconds: fix.at))
            self.init(id: event.position, event: "positionChanged", data: try encoder.encode(position))
        case .areaNotification(let handed):
            self.init(id: event.position, event: "areaNotification", data: try encoder.encode(AreaNotification(handed)))
        case .trace(let message, let decision):
            let trace = TraceMessage(
                message: message, area: decision.area, rule: decision.rule,
                at: Timestamp.iso8601(microseconds: decision.at))
            self.init(id: event.position, event: "trace", data: try encoder.encode(trace))
        }
    }
}

extension DeviceTraceLogging {
    /// A device's trace logging as the API shows it (and the command line prints it).
    public init(deviceId: String, _ trace: AreaNotices.TraceLogging) {
        self.init(deviceId: deviceId, device: trace.device, namespace: trace.namespace, effective: trace.effective)
    }
}

extension AreaNotification {
    /// A handed notice as the API shows it (and the command line prints it).
    public init(_ handed: AreaNotificationHanded) {
        self.init(
            id: handed.noticeId, action: handed.action == .notifyUser ? .notifyUser : .notifyServer,
            deviceId: handed.deviceId, areaKind: handed.areaKind, area: handed.area, rule: handed.rule,
            trigger: handed.trigger, at: Timestamp.iso8601(microseconds: handed.at), title: handed.title,
            body: handed.body, openURL: handed.openURL, openPBK: handed.openPBK,
            data: handed.data.flatMap { try? JSONValue(json: Data($0.utf8)) }, serverURL: handed.serverURL)
    }
}
