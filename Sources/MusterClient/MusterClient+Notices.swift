import Foundation
import MusterWire

extension MusterClient {
    /// The area notifications waiting for this device's app (`GET /api/v1/devices/{id}/notices`), oldest first:
    /// handed to it because the namespace leaves user or server notifications to the app.
    public func notices(deviceId: String) async throws(MusterClientError) -> [AreaNotification] {
        let request = APIRequest("GET", ["devices", deviceId, "notices"])
        return try decode([AreaNotification].self, from: try await perform(request), of: request)
    }

    /// Has the server do what the rule would have done (`POST /api/v1/notices/{id}/perform`): send the
    /// notification to the user, or call the server notification URL and go on with the rule. Once per notice.
    public func performNotice(_ id: UUID) async throws(MusterClientError) -> NoticeOutcome {
        let request = APIRequest("POST", ["notices", id.uuidString.lowercased(), "perform"])
        return try decode(NoticeOutcome.self, from: try await perform(request), of: request)
    }

    /// Tells the server the app dealt with the notice itself (`POST /api/v1/notices/{id}/dismiss`): nothing is
    /// sent.
    public func dismissNotice(_ id: UUID) async throws(MusterClientError) -> NoticeOutcome {
        let request = APIRequest("POST", ["notices", id.uuidString.lowercased(), "dismiss"])
        return try decode(NoticeOutcome.self, from: try await perform(request), of: request)
    }

    /// The device's live stream (`GET /api/v1/devices/{id}/events`): areas entered and left, positions, area
    /// notifications, and with trace logging the rules' decisions not to act. Reconnects like
    /// ``inboxUpdates(after:)``.
    ///
    /// - Parameters:
    ///   - trace: whether to receive trace messages; nil follows the namespace's `traceLogging` setting.
    ///   - position: resume after this log position; nil to start where the server starts a new stream.
    public func deviceEvents(deviceId: String, trace: Bool? = nil, after position: String? = nil)
        -> LiveStream<DeviceLiveEvent>
    {
        let query = trace.map { [URLQueryItem(name: "trace", value: $0 ? "true" : "false")] } ?? []
        return liveStream(
            path: ["devices", deviceId, "events"], query: query, after: position, decode: DeviceLiveEvent.decode)
    }

    /// Whether this device's live stream carries the rules' decisions not to act
    /// (`GET /api/v1/devices/{id}/trace-logging`).
    public func traceLogging(deviceId: String) async throws(MusterClientError) -> DeviceTraceLogging {
        let request = APIRequest("GET", ["devices", deviceId, "trace-logging"])
        return try decode(DeviceTraceLogging.self, from: try await perform(request), of: request)
    }

    /// Turns trace logging on or off for this device, or back to the namespace's setting with nil
    /// (`PUT /api/v1/devices/{id}/trace-logging`; seed 004's "allow/disallow trace message logging").
    public func setTraceLogging(_ enabled: Bool?, deviceId: String) async throws(MusterClientError)
        -> DeviceTraceLogging
    {
        let request = try APIRequest(
            "PUT", ["devices", deviceId, "trace-logging"], json: TraceLoggingBody(enabled: enabled))
        return try decode(DeviceTraceLogging.self, from: try await perform(request), of: request)
    }
}
