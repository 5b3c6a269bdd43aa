import EventLogTesting
import Foundation
import NATSTesting
import Testing

extension ClusterSuites {
    /// What every node of a cluster must agree on, refused at start with what to use instead.
    @Suite(.serialized) struct ClusterSettingsTests {
        @Test func aNodeStartedWithOtherLeaseSettingsThanTheClusterIsToldWhichToUse() async throws {
            let nats = try await NATSCluster(servers: 1)
            defer { Task { await nats.stopAll() } }
            let port = try LoopbackPort.free()
            let first = try await ServerProcess(
                extraArguments: [
                    "--cluster", nats.urls, "--node", "a", "--advertise", "http://127.0.0.1:\(port)", "--lease-seconds",
                    "4", "--cluster-replicas", "1",
                ], port: port)
            #expect(await first.stop() == 0)

            let data = try TemporaryDirectory("serve-other-lease")
            defer { data.remove() }
            let other = try await MusterProcess.run([
                "serve", "--port", "0", "--data", data.url.path, "--cluster", nats.urls, "--node", "b", "--advertise",
                "http://127.0.0.1:1", "--lease-seconds", "6", "--cluster-replicas", "1",
            ])
            #expect(other.status == 2, "\(other)")
            #expect(
                other.stderr.contains(
                    "the cluster's leases (key-value bucket MUSTER_LEASES) last 4 s, kept by 1 server, and every node "
                        + "uses the same: start this node with --lease-seconds 4 --cluster-replicas 1, not "
                        + "--lease-seconds 6 --cluster-replicas 1"), "\(other.stderr)")
            await nats.stopAll()
        }
    }
}
