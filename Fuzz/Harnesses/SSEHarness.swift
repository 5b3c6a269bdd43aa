import MusterClient

extension FuzzTarget {
    /// A `text/event-stream` as the client receives it from a server. The first byte picks where the stream is
    /// split into reads; the rest is the stream.
    static let sse = FuzzTarget(name: "sse", summary: "ServerSentEventParser.parse, whole and split anywhere") {
        input in
        guard let seed = input.first else { return }
        let stream = Array(input.dropFirst())
        var whole = ServerSentEventParser()
        let all = whole.parse(stream)
        // The same bytes in reads of 1…N bytes give the same events and the same state.
        var split = ServerSentEventParser()
        var pieces: [ServerSentEvent] = []
        var offset = 0
        var step = Int(seed % 7) + 1
        while offset < stream.count {
            let end = min(stream.count, offset + step)
            pieces += split.parse(stream[offset..<end])
            offset = end
            step = step % 5 + 1
        }
        require(pieces == all, "split reads give \(pieces.count) events, one read \(all.count)")
        require(split.lastEventId == whole.lastEventId, "split reads end with another last event id")
        require(split.reconnectionTime == whole.reconnectionTime, "split reads end with another retry")
        for event in all {
            require(!event.type.isEmpty, "an event without a type")
            require(!event.lastEventId.contains("\0"), "a last event id with NUL")
        }
        whole.finish()
        require(whole.parse([]).isEmpty, "a finished parser dispatched an event")
    }
}
