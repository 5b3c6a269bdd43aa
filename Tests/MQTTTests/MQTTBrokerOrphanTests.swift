import EventLogTesting
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
        let exited = try PeerDirectory.exitedProcessID()
        try "\(exited)\n".write(
            to: orphan.directory.appendingPathComponent("owner"), atomically: true, encoding: .utf8)
        let pid = try #require(PeerDirectory.processID(of: "mosquitto", in: orphan.directory))
        #expect(Glibc.kill(pid, 0) == 0)

        try await withMQTTBroker(users: testUsers) { _ in
            #expect(!FileManager.default.fileExists(atPath: orphan.directory.path))
            #expect(!PeerDirectory.isRunning(pid, named: "mosquitto"))
        }
        await orphan.stop()
    }

    @Test func aBrokerOfALiveRunIsLeftAlone() async throws {
        try await withMQTTBroker(users: testUsers) { first in
            try await withMQTTBroker(users: testUsers) { _ in
                #expect(
                    FileManager.default.fileExists(atPath: first.directory.appendingPathComponent("mosquitto.pid").path)
                )
                let client = try MQTTClient(first.configuration(user: "muster", clientID: "still-there")) { _ in }
                try await client.connect()
                #expect(client.state == .connected(sessionPresent: false))
                await client.shutdown()
            }
        }
    }
}
