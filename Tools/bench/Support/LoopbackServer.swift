import EventLog
import Logging
import MusterHTTP
import ServiceLifecycle

/// `muster serve` in process on a free loopback port, without rate limits, for wrk to load: runs
/// `body` with the server's base URL and then stops it gracefully (connections closed, requests
/// finished), never by cancelling.
func withLoopbackServer<T: Sendable>(
    log: EventLog, label: String, _ body: (String) async throws -> T
) async throws -> T {
    var server = ServerConfiguration()
    server.port = 0
    server.rateLimit = 1e9
    server.burst = 1e9
    let (ports, portContinuation) = AsyncStream<Int>.makeStream()
    let application = try await MusterServer.make(log: log, configuration: server).application { port in
        portContinuation.yield(port)
    }
    let group = ServiceGroup(
        configuration: .init(services: [.init(service: application)], logger: Logger(label: label)))
    let serving = Task { try await group.run() }
    var iterator = ports.makeAsyncIterator()
    guard let port = await iterator.next() else { throw BenchError.command("the server did not start") }
    do {
        let result = try await body("http://127.0.0.1:\(port)")
        await group.triggerGracefulShutdown()
        _ = await serving.result
        return result
    } catch {
        await group.triggerGracefulShutdown()
        _ = await serving.result
        throw error
    }
}
