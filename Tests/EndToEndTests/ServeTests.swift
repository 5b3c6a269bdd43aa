import EventLog
import EventLogTesting
import Foundation
import Muster
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// `muster serve` over real sockets: set-up by the CLI, use over HTTP, and a graceful stop.
@Suite struct ServeTests {
    @Test func anAdministratorMadeByTheCLILogsInOverHTTPAndCreatesUsers() async throws {
        let server = try await ServerProcess()
        let kind = try await server.send("GET", "api/v1/server")
        #expect(kind.status == 200)
        #expect(kind.object["serverType"] as? String == "Internal")
        let ada = try await server.login("ada", password: "secret-ada")
        let created = try await server.send(
            "POST", "api/v1/users", token: ada, json: #"{"username":"joe","password":"secret-joe"}"#)
        #expect(created.status == 201, "\(created.text)")
        _ = try await server.login("joe", password: "secret-joe")
        // The CLI reads what the server wrote, while it runs.
        let users = try await MusterProcess.run(["users", "list", "--json"] + server.data)
        #expect(users.stdout.contains("joe"))
        let metrics = try await server.send("GET", "metrics")
        #expect(metrics.status == 200)
        for name in [
            "muster_http_requests_total", "muster_writer_commit_seconds", "muster_writer_batch_events",
            "muster_log_head", "muster_projection_lag_events",
        ] {
            #expect(metrics.text.contains(name), "\(name) in /metrics")
        }
        let bad = try await server.send("POST", "api/v1/users", token: ada, json: #"{"username":"#)
        #expect(bad.status == 400)
        #expect(bad.errorCode == "bad_request")
        #expect(await server.stop() == 0)
    }

    @Test func sigtermDuringLoadLosesNoAcknowledgedRequest() async throws {
        let server = try await ServerProcess()
        let ada = try await server.login("ada", password: "secret-ada")
        let acknowledged = Acknowledged()
        let load = Task {
            await withTaskGroup(of: Void.self) { group in
                for worker in 0..<16 {
                    group.addTask {
                        var n = 0
                        while true {
                            n += 1
                            let marker = "w\(worker)-\(n)"
                            guard
                                let answer = try? await server.send(
                                    "POST", "api/v1/topics/load/\(worker)", token: ada,
                                    json: #"{"marker":"\#(marker)"}"#),
                                answer.status == 202, let position = answer.object["position"] as? Int
                            else { return }
                            await acknowledged.add(marker, at: UInt64(position))
                        }
                    }
                }
            }
            await acknowledged.finish()
        }
        await acknowledged.waitFor(count: 200)
        let status = await server.stop()
        // The loaders end by themselves once the server is gone (their next request fails). They
        // are not cancelled: cancelling a URLSession request on Linux can deadlock (URLSession.exchange).
        await load.value
        #expect(status == 0, "exit status after SIGTERM: \(server.running.stderr)")
        let markers = await acknowledged.all
        #expect(markers.count >= 200)
        // Every acknowledged publish is in the log, at the position the server answered.
        var configuration = EventLog.Configuration()
        configuration.projections += MusterDomain.projections
        let log = try EventLog(directory: server.directory.url, configuration: configuration)
        defer { log.close() }
        for (marker, position) in markers {
            let event = try #require(try log.read { try $0.event(at: position) }, "position \(position)")
            let published = try #require(try TopicPublished.decode(event))
            #expect(String(decoding: published.document, as: UTF8.self) == #"{"marker":"\#(marker)"}"#)
        }
    }
}

/// The markers the server acknowledged, with their positions.
actor Acknowledged {
    private(set) var all: [(String, UInt64)] = []
    private var waiters: [(Int, CheckedContinuation<Void, Never>)] = []

    func add(_ marker: String, at position: UInt64) {
        all.append((marker, position))
        waiters.removeAll { count, continuation in
            guard all.count >= count else { return false }
            continuation.resume()
            return true
        }
    }

    private var finished = false

    /// Suspends until `count` markers were acknowledged or the load ended.
    func waitFor(count: Int) async {
        if all.count >= count || finished { return }
        await withCheckedContinuation { waiters.append((count, $0)) }
    }

    func finish() {
        finished = true
        for (_, continuation) in waiters { continuation.resume() }
        waiters = []
    }
}
