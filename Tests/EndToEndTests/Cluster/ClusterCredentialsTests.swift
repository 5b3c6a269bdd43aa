import EventLogTesting
import Foundation
import NATSTesting
import Testing

extension ClusterSuites {
    /// NATS servers that ask for a user and password: a node and the CLI give them from an owner-only file or the
    /// environment, never from the command line, and no error shows a password.
    @Suite(.serialized) struct ClusterCredentialsTests {
        static let password = "cluster-s3cret"

        /// An owner-only file holding `text`.
        static func secretFile(_ text: String, in directory: TemporaryDirectory, mode: Int = 0o600) throws -> String {
            let file = directory.url.appendingPathComponent("nats-password").path
            try Data((text + "\n").utf8).write(to: URL(fileURLWithPath: file))
            try FileManager.default.setAttributes([.posixPermissions: mode], ofItemAtPath: file)
            return file
        }

        @Test func aNodeJoinsWithItsPasswordFileAndTheCLIAsksWithThePasswordInTheEnvironment() async throws {
            let nats = try await NATSCluster(servers: 1, userName: "muster", password: Self.password)
            defer { Task { await nats.stopAll() } }
            let secrets = try TemporaryDirectory("cluster-secrets")
            defer { secrets.remove() }
            let file = try Self.secretFile(Self.password, in: secrets)
            let port = try LoopbackPort.free()
            let node = try await ServerProcess(
                extraArguments: [
                    "--cluster", nats.urls, "--node", "a", "--advertise", "http://127.0.0.1:\(port)",
                    "--cluster-replicas",
                    "1", "--cluster-user", "muster", "--cluster-password-file", file,
                ], port: port)
            let token = try await eventually("node a to take writes") {
                let answer = try await node.send(
                    "POST", "api/v1/auth/token", json: #"{"username":"ada","password":"secret-ada"}"#)
                return answer.status == 200 ? answer.object["accessToken"] as? String : nil
            }
            #expect(!token.isEmpty)

            let environment = ProcessInfo.processInfo.environment.merging(["MUSTER_CLUSTER_PASSWORD": Self.password]) {
                _, given in given
            }
            let status = try await MusterProcess.run(
                ["cluster", "status", "--cluster", nats.urls, "--cluster-user", "muster", "--json"],
                environment: environment)
            #expect(status.status == 0 && status.stdout.contains(#""role":"primary""#), "\(status)")
            #expect(!node.running.stderr.contains(Self.password))
            #expect(await node.stop() == 0)
            await nats.stopAll()
        }

        @Test func aWrongPasswordIsRefusedWithoutShowingItAndAPasswordFileOthersCanReadIsRefused() async throws {
            let nats = try await NATSCluster(servers: 1, userName: "muster", password: Self.password)
            defer { Task { await nats.stopAll() } }
            let address = nats.servers[0].url.replacingOccurrences(of: "nats://", with: "")
            // A password written into the URL is used, and never shown.
            let wrong = try await MusterProcess.run([
                "cluster", "status", "--cluster", "nats://muster:wrong-s3cret@\(address)",
            ])
            #expect(wrong.status == 2, "\(wrong)")
            #expect(wrong.stderr.contains("--cluster nats://\(address)"), "\(wrong.stderr)")
            #expect(wrong.stderr.contains("; check --cluster-user and the password"), "\(wrong.stderr)")
            let anonymous = try await MusterProcess.run(["cluster", "status", "--cluster", nats.urls])
            #expect(
                anonymous.status == 2 && anonymous.stderr.contains("the servers ask for a user: give --cluster-user"),
                "\(anonymous)")
            #expect(!wrong.stderr.contains("wrong-s3cret") && !wrong.stdout.contains("wrong-s3cret"), "\(wrong)")

            let secrets = try TemporaryDirectory("cluster-secrets")
            defer { secrets.remove() }
            let readable = try Self.secretFile(Self.password, in: secrets, mode: 0o644)
            let shared = try await MusterProcess.run([
                "cluster", "status", "--cluster", nats.urls, "--cluster-user", "muster", "--cluster-password-file",
                readable,
            ])
            #expect(
                shared.status == 2 && shared.stderr.contains("can be read by others (mode 644): chmod 600"), "\(shared)"
            )

            let data = try TemporaryDirectory("serve-credentials")
            defer { data.remove() }
            let alone = try await MusterProcess.run(["serve", "--data", data.url.path, "--cluster-user", "muster"])
            #expect(
                alone.status == 2
                    && alone.stderr.contains(
                        "--cluster-password-file, --cluster-ca-file, --cluster-cert-file and "
                            + "--cluster-key-file need --cluster URLS"),
                "\(alone)")
            await nats.stopAll()
        }

        /// NATS servers that speak TLS and ask for a client certificate: a node joins with the authority, its
        /// certificate and its owner-only key; the CLI without the authority is told to give it.
        @Test func aNodeJoinsServersSpeakingTLSWithTheAuthorityAndItsCertificate() async throws {
            let nats = try await NATSCluster(servers: 1, tls: true, clientCertificates: true)
            defer { Task { await nats.stopAll() } }
            let certificates = try #require(nats.certificates)
            let client = try await certificates.client(commonName: "node-a")
            let tls = [
                "--cluster-ca-file", certificates.caFile, "--cluster-cert-file", client.certificateFile,
                "--cluster-key-file", client.keyFile,
            ]
            let port = try LoopbackPort.free()
            let node = try await ServerProcess(
                extraArguments: [
                    "--cluster", nats.urls, "--node", "a", "--advertise", "http://127.0.0.1:\(port)",
                    "--cluster-replicas", "1",
                ] + tls, port: port)
            let token = try await eventually("node a to take writes") {
                let answer = try await node.send(
                    "POST", "api/v1/auth/token", json: #"{"username":"ada","password":"secret-ada"}"#)
                return answer.status == 200 ? answer.object["accessToken"] as? String : nil
            }
            #expect(!token.isEmpty)
            let status = try await MusterProcess.run(["cluster", "status", "--cluster", nats.urls, "--json"] + tls)
            #expect(status.status == 0 && status.stdout.contains(#""role":"primary""#), "\(status)")

            let plain = try await MusterProcess.run(["cluster", "status", "--cluster", nats.urls])
            #expect(plain.status == 2 && plain.stderr.contains("give --cluster-ca-file"), "\(plain)")
            let noCertificate = try await MusterProcess.run(
                ["cluster", "status", "--cluster", nats.urls, "--cluster-ca-file", certificates.caFile])
            #expect(
                noCertificate.status == 2
                    && noCertificate.stderr.contains("when they ask for one, --cluster-cert-file"),
                "\(noCertificate)")
            try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: client.keyFile)
            let readableKey = try await MusterProcess.run(["cluster", "status", "--cluster", nats.urls] + tls)
            #expect(
                readableKey.status == 2 && readableKey.stderr.contains("--cluster-key-file")
                    && readableKey.stderr.contains("chmod 600"), "\(readableKey)")
            #expect(await node.stop() == 0)
            await nats.stopAll()
        }
    }
}
