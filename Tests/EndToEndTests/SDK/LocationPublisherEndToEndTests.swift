import Foundation
import MusterClient
import Testing

/// `LocationPublisher` with a real server: a scripted source's fixes, throttled, arrive as `LocationReported` events.
@Suite(.serialized) struct LocationPublisherEndToEndTests {
    /// Fixes from a script, then the end of the stream; whether the publisher ended the stream early.
    struct ScriptedSource: LocationSource {
        var script: [LocationFix]
        /// Keeps the stream open after the script, until the publisher stops.
        var staysOpen = false
        let ended = AsyncStream<Void>.makeStream()

        func fixes() -> AsyncStream<LocationFix> {
            let (stream, continuation) = AsyncStream.makeStream(of: LocationFix.self)
            for fix in script { continuation.yield(fix) }
            if !staysOpen { continuation.finish() }
            continuation.onTermination = { [ended] _ in
                ended.continuation.yield()
                ended.continuation.finish()
            }
            return stream
        }
    }

    /// A server, and joe logged in with his phone registered.
    func joe() async throws -> (ServerProcess, MusterClient) {
        let server = try await ServerProcess(extraArguments: ["--no-push"])
        let add = try await server.run(
            ["users", "add", "joe", "--password-stdin"] + server.data, stdin: "secret-joe\n")
        try #require(add.status == 0, "\(add)")
        let client = MusterClient(serverURL: server.base)
        try #require(await client.authWithInternal(username: "joe", password: "secret-joe").authValid)
        _ = try await client.registerDevice(
            deviceId: "joe-phone", deviceName: "Joe's phone", platform: .fcm, token: "f1")
        return (server, client)
    }

    /// The positions of the `LocationReported` events in the log, in order, as the CLI prints them.
    func reported(_ server: ServerProcess) async throws -> [[String: Any]] {
        let events = try await server.run(["events", "--type", "LocationReported", "--json"] + server.data)
        try #require(events.status == 0, "\(events)")
        return try events.jsonLines()
    }

    /// `metres` north of the start (a degree of latitude is about 111.2 km).
    static func north(_ metres: Double, at seconds: TimeInterval) -> LocationFix {
        let start = Date(timeIntervalSince1970: 1_795_000_000)
        return LocationFix(
            latitude: 48.8566 + metres / 111_195, longitude: 2.3522, accuracy: 5,
            timestamp: start.addingTimeInterval(seconds))
    }

    @Test func onlyFixesFarAndLateEnoughArePublishedAsLocationReportedEvents() async throws {
        let (server, client) = try await joe()
        let script = [
            Self.north(0, at: 0),  // the first: published
            Self.north(500, at: 10),  // moved, but 10 s later: held back
            Self.north(20, at: 70),  // late enough, but 20 m from the last published: held back
            Self.north(300, at: 80),  // 300 m and 80 s: published
            Self.north(330, at: 200),  // 30 m: held back
            Self.north(1_000, at: 300),  // published
        ]
        let publisher = LocationPublisher(
            client: client, deviceId: "joe-phone", source: ScriptedSource(script: script),
            throttle: LocationThrottle(interval: .seconds(60), distance: 50))
        await publisher.run()

        #expect(await publisher.publishedCount == 3)
        #expect(await publisher.skippedCount == 3)
        #expect(await publisher.lastError == nil)
        let events = try await reported(server)
        #expect(events.count == 3, "\(events)")
        let latitudes = events.compactMap { ($0["body"] as? [String: Any])?["latitude"] as? Double }
        let expected = [script[0], script[3], script[5]].map(\.latitude)
        #expect(latitudes.count == 3 && zip(latitudes, expected).allSatisfy { abs($0 - $1) < 1e-9 }, "\(events)")
    }

    @Test(.timeLimit(.minutes(5))) func stoppingEndsTheSourceAndTheRun() async throws {
        let (server, client) = try await joe()
        let source = ScriptedSource(script: [Self.north(0, at: 0), Self.north(10, at: 5)], staysOpen: true)
        let publisher = LocationPublisher(client: client, deviceId: "joe-phone", source: source)
        let running = Task { await publisher.run() }
        // The second fix is held back (5 s, 10 m): once it is counted, both fixes were handled.
        let deadline = ContinuousClock.now + .seconds(30)
        while await publisher.publishedCount + publisher.skippedCount < 2 {
            try #require(ContinuousClock.now < deadline, "the publisher did not handle the fixes within 30 s")
            try await Task.sleep(for: .milliseconds(10))
        }
        await publisher.stop()
        await running.value
        var ended = source.ended.stream.makeAsyncIterator()
        #expect(await ended.next() != nil, "the source's stream was ended")
        #expect(try await reported(server).count == 1)
        #expect(await publisher.publishedCount == 1)
    }
}
