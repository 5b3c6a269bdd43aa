import Foundation
import MusterWire

extension MusterClient {
    /// Admin: the namespace's events in log order (`GET /api/v1/events`), each as `muster events --json` prints
    /// it: from position `from` (default 1), of one stream or type when given, at most `limit` (1 to 10,000;
    /// the server's default 1,000). Read the next page from the last event's position plus one.
    public func events(stream: String? = nil, type: String? = nil, from: UInt64? = nil, limit: Int? = nil)
        async throws(MusterClientError) -> [EventLine]
    {
        var request = APIRequest("GET", ["events"])
        request.query =
            Self.eventFilter(stream: stream, type: type)
            + [
                from.map { URLQueryItem(name: "from", value: String($0)) },
                limit.map { URLQueryItem(name: "limit", value: String($0)) },
            ].compactMap { $0 }
        let response = try await perform(request)
        let bytes = Array(response.body)
        guard let document = try? JSONScanner.scan(bytes), !document.isObject else {
            throw .invalidResponse(request.summary)
        }
        var lines: [EventLine] = []
        for element in document.elements {
            guard let line = EventLine(bytes, range: element) else { throw .invalidResponse(request.summary) }
            lines.append(line)
        }
        return lines
    }

    /// Admin: the namespace's events live (`GET /api/v1/events`, `Accept: text/event-stream`), of one stream or
    /// type when given: each event as it is recorded, from the one after `position` (nil: from now on).
    /// Reconnects like ``inboxUpdates(after:)``.
    public func eventUpdates(stream: String? = nil, type: String? = nil, after position: String? = nil)
        -> LiveStream<EventLine>
    {
        liveStream(path: ["events"], query: Self.eventFilter(stream: stream, type: type), after: position) {
            event throws(MusterClientError) in
            guard event.type == "event" else { return nil }
            guard let line = EventLine(Array(event.data.utf8)) else {
                throw .invalidResponse("the stream's event at \(event.lastEventId)")
            }
            return line
        }
    }

    private static func eventFilter(stream: String?, type: String?) -> [URLQueryItem] {
        [stream.map { URLQueryItem(name: "stream", value: $0) }, type.map { URLQueryItem(name: "type", value: $0) }]
            .compactMap { $0 }
    }
}
