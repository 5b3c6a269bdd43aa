import EventLogTesting
import Foundation
import NATSTesting
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// A test run killed from outside cannot stop its servers; the next run's first cluster does.
@Suite struct NATSClusterOrphanTests {
    @Test func aServerWhoseRunIsGoneIsKilledAndItsFilesRemovedByTheNextCluster() async throws {
        let orphan = try await NATSCluster(servers: 1)
        // Make its owner a process that has exited, as a killed test run's would be.
        try "\(try PeerDirectory.exitedProcessID())\n".write(
            to: orphan.directory.appendingPathComponent("owner"), atomically: true, encoding: .utf8)
        let pid = try #require(PeerDirectory.processID(of: "s1", in: orphan.directory))
        #expect(PeerDirectory.isRunning(pid, named: "nats-server"))

        let next = try await NATSCluster(servers: 1)
        #expect(!FileManager.default.fileExists(atPath: orphan.directory.path))
        try await eventually("the orphan to end", timeout: .seconds(60)) {
            PeerDirectory.isRunning(pid, named: "nats-server") ? nil : true
        }
        #expect(FileManager.default.fileExists(atPath: next.directory.path))
        await next.stopAll()
        await orphan.stopAll()
    }
}
