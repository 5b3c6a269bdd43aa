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
        try "\(try await exitedProcessID())\n".write(
            to: orphan.directory.appendingPathComponent("owner"), atomically: true, encoding: .utf8)
        let pid = try #require(
            pid_t(
                try String(contentsOf: orphan.directory.appendingPathComponent("s1.pid"), encoding: .utf8)
                    .trimmingCharacters(in: .whitespacesAndNewlines)))
        #expect(isRunningNATSServer(pid))

        let next = try await NATSCluster(servers: 1)
        #expect(!FileManager.default.fileExists(atPath: orphan.directory.path))
        try await eventually("the orphan to end", timeout: .seconds(10)) { isRunningNATSServer(pid) ? nil : true }
        #expect(FileManager.default.fileExists(atPath: next.directory.path))
        await next.stopAll()
        await orphan.stopAll()
    }

    /// The id of a child that ran `/bin/true` and was reaped: no process has it now (ids are not reused this soon).
    private func exitedProcessID() async throws -> pid_t {
        var pid: pid_t = 0
        let argv: [UnsafeMutablePointer<CChar>?] = [strdup("/bin/true"), nil]
        defer { argv.forEach { free($0) } }
        try #require(posix_spawn(&pid, "/bin/true", nil, nil, argv, environ) == 0)
        var status: Int32 = 0
        waitpid(pid, &status, 0)
        return pid
    }

    /// True while `pid` is a nats-server (it may linger as a zombie of this process until reaped: not running).
    private func isRunningNATSServer(_ pid: pid_t) -> Bool {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else { return false }
        return status.contains("nats-server") && !status.contains("State:\tZ")
    }
}
