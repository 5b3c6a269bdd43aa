import EventLogTesting
import Foundation
import NATS
import NATSTesting
import Testing

/// Servers a whole suite shares: started once before its first test, stopped after its last. A 3-server cluster takes
/// about a second to start; once per test would make the suite slow for nothing.
struct SharedNATSServers: SuiteTrait, TestScoping {
    let count: Int

    /// The servers of the suite running now.
    @TaskLocal static var current: NATSCluster?

    func provideScope(
        for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
    ) async throws {
        let cluster = try await NATSCluster(servers: count)
        do {
            try await Self.$current.withValue(cluster) { try await function() }
        } catch {
            await cluster.stopAll()
            throw error
        }
        await cluster.stopAll()
    }
}

extension Trait where Self == SharedNATSServers {
    /// `count` servers (1, or 3 for a cluster) shared by the suite's tests.
    static func natsServers(_ count: Int) -> SharedNATSServers { SharedNATSServers(count: count) }
}

/// The suite's servers.
func sharedServers() throws -> NATSCluster {
    try #require(SharedNATSServers.current, "the suite needs the .natsServers trait")
}

/// A name no other test uses, for streams, subjects and buckets (letters, digits and `_`).
func uniqueName(_ prefix: String) -> String {
    "\(prefix)_\(UUID().uuidString.prefix(8))"
}

/// Runs `body` with a connection to the suite's servers and closes it afterwards, also when `body` throws.
func withConnection<T>(
    name: String = "test", requestTimeout: Duration = .seconds(5), server: Int? = nil,
    _ body: (NATSConnection, NATSCluster) async throws -> T
) async throws -> T {
    let cluster = try sharedServers()
    let connection = try await NATSConnection.connect(
        cluster.configuration(name: name, server: server, requestTimeout: requestTimeout))
    do {
        let result = try await body(connection, cluster)
        await connection.close()
        return result
    } catch {
        await connection.close()
        throw error
    }
}

extension Array where Element == UInt8 {
    /// The UTF-8 bytes of `text`.
    static func utf8(_ text: String) -> [UInt8] { Array(text.utf8) }
}
