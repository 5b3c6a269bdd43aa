import Foundation
import MQTT
import MQTTTesting
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// A test run killed from outside cannot stop its brokers; the next run's first broker does.
@Suite struct MQTTBrokerOrphanTests {
    @Test func aBrokerWhoseRunIsGoneIsStoppedAndItsFilesRemovedByTheNextBroker() async throws {
        let orphan = try await MQTTBroker(users: testUsers)
        // Make its owner a process that has exited, as a killed test run's would be.
        let exited = try await exitedProcessID()
        try "\(exited)\n".write(
            to: orphan.directory.appendingPathComponent("owner"), atomically: true, encoding: .utf8)
        let pid = try #require(
            pid_t(
                try String(contentsOf: orphan.directory.appendingPathComponent("pid"), encoding: .utf8)
                    .trimmingCharacters(in: .whitespacesAndNewlines)))
        #expect(Glibc.kill(pid, 0) == 0)

        try await withMQTTBroker(users: testUsers) { _ in
            #expect(!FileManager.default.fileExists(atPath: orphan.directory.path))
            #expect(!isRunningMosquitto(pid))
        }
        await orphan.stop()
    }

    @Test func aBrokerOfALiveRunIsLeftAlone() async throws {
        try await withMQTTBroker(users: testUsers) { first in
            try await withMQTTBroker(users: testUsers) { _ in
                #expect(FileManager.default.fileExists(atPath: first.directory.appendingPathComponent("pid").path))
                let client = try MQTTClient(first.configuration(user: "muster", clientID: "still-there")) { _ in }
                try await client.connect()
                #expect(client.state == .connected(sessionPresent: false))
                await client.shutdown()
            }
        }
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

    /// True while `pid` is a mosquitto (it may linger as a zombie of this process until reaped: not running).
    private func isRunningMosquitto(_ pid: pid_t) -> Bool {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else { return false }
        return status.contains("mosquitto") && !status.contains("State:\tZ")
    }
}
