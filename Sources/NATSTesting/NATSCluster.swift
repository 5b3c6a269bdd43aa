import EventLogTesting
import Foundation
import NATS

#if canImport(Glibc)
    import Glibc
#endif

/// Real nats-server processes (Debian's `/usr/sbin/nats-server`) with JetStream on free loopback ports: one server,
/// or a cluster of three, for tests.
///
/// Each server has a generated configuration, its own JetStream store and log in a temporary directory, and keeps
/// its ports across restarts, so `restart(server:)` brings back what it stored. Tests kill (SIGKILL), stop (SIGTERM),
/// pause (SIGSTOP) and resume servers to see what the client makes of it. Call `stopAll()` at the end; `deinit` kills
/// what is left and removes the files. Servers of an earlier run that was killed before it could stop them are
/// stopped by the next cluster's start.
public final class NATSCluster: @unchecked Sendable {
    /// One server's names and places.
    public struct Server: Sendable {
        /// Its `server_name` (`s1`, `s2`, `s3`), as stream infos name it.
        public let name: String
        /// The loopback port clients connect to.
        public let clientPort: Int
        /// The loopback port the other servers connect to (0 for a single server).
        public let clusterPort: Int
        /// Its JetStream store.
        public let storeDirectory: URL

        /// `nats://127.0.0.1:<clientPort>`.
        public var url: String { "nats://127.0.0.1:\(clientPort)" }
    }

    /// The servers' files: a configuration, a store and a log each.
    public let directory: URL
    /// The servers, in the order they were made.
    public private(set) var servers: [Server] = []
    /// The user clients must authenticate as, or nil when the servers take anyone.
    public let userName: String?
    /// The password of `userName`.
    public let password: String?
    /// The test authority and server certificates when the servers speak TLS to clients.
    public private(set) var certificates: TestCertificates?
    /// Whether the servers ask clients for a certificate of the test authority.
    public let clientCertificates: Bool
    private let lock = NSLock()
    private var processes: [ChildProcess?]

    /// Starts `count` servers (1, or 3 for a cluster) and waits until JetStream can make a stream with `count`
    /// replicas.
    ///
    /// - Parameters:
    ///   - userName: the one user the servers accept (with `password`); nil: anyone may connect.
    ///   - tls: speak TLS only to clients, with a certificate for 127.0.0.1 from an authority made for the test
    ///     (`certificates`); `clientCertificates`: and take only clients showing a certificate of it.
    public init(
        servers count: Int = 1, userName: String? = nil, password: String? = nil, tls: Bool = false,
        clientCertificates: Bool = false
    ) async throws {
        precondition(count == 1 || count == 3, "a NATSCluster has one server or three")
        self.userName = userName
        self.password = password
        self.clientCertificates = clientCertificates
        Self.stopOrphans()
        directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "\(Self.directoryPrefix)\(UUID().uuidString.prefix(8))", isDirectory: true)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        if tls {
            let made = try await TestCertificates.make(in: directory.appendingPathComponent("tls"))
            certificates = made
            if clientCertificates {
                let client = try await made.client(commonName: "muster-test")
                clientCertificate = (client.certificateFile, client.keyFile)
            }
        }
        processes = Array(repeating: nil, count: count)
        // One cluster starts at a time in a test run: suites run in parallel, and several nats-servers starting at
        // once on a loaded machine were seen to stall for more than 30 s.
        await Self.turns.take()
        do {
            try await startServers()
        } catch {
            await Self.turns.give()
            throw error
        }
        await Self.turns.give()
    }

    /// Starts the servers on free ports and waits until JetStream is ready; other ports when one was taken meanwhile.
    private func startServers() async throws {
        for attempt in 1...5 {
            servers = try Self.choosePorts(count: processes.count, in: directory)
            try writeConfigurations()
            do {
                for index in servers.indices { try start(index) }
                for index in servers.indices { try await waitUntilAccepting(index) }
                try await waitUntilReady()
                return
            } catch is NATSClusterError where attempt < 5 && logs.contains("address already in use") {
                // Another process took a port between its choice and the server's bind: other ports, fresh logs.
                await stopAll(signal: SIGKILL)
                for server in servers {
                    try? FileManager.default.removeItem(at: logFile(server))
                }
            }
        }
    }

    /// All client URLs, comma-separated, as `NATSConfiguration(servers:)` takes them.
    public var urls: String { servers.map(\.url).joined(separator: ",") }

    /// A client configuration for these servers (or only `server`), reconnecting and pinging quickly so that tests
    /// see a loss within a second.
    public func configuration(
        name: String, server: Int? = nil, requestTimeout: Duration = .seconds(5)
    ) -> NATSConfiguration {
        NATSConfiguration(
            servers: server.map { servers[$0].url } ?? urls, name: name, userName: userName, password: password,
            connectTimeout: .seconds(2), requestTimeout: requestTimeout, reconnectWait: .milliseconds(100),
            pingInterval: .milliseconds(500), tls: clientTLS)
    }

    /// What a client of these servers needs for TLS: the authority, and a certificate of it when the servers ask
    /// for one (made once, for common name `muster-test`).
    private var clientTLS: NATSTLS? {
        guard let certificates else { return nil }
        return NATSTLS(
            caFile: certificates.caFile, certificateFile: clientCertificate?.0, keyFile: clientCertificate?.1)
    }
    private var clientCertificate: (String, String)?

    /// The log of `server` so far, for reading a failure.
    public func log(of server: Int) -> String {
        (try? String(contentsOf: logFile(servers[server]), encoding: .utf8)) ?? ""
    }

    /// Kills `server` with SIGKILL, as in a crash, and waits until it is gone.
    public func kill(server: Int) async {
        await end(server, signal: SIGKILL)
    }

    /// Stops `server` with SIGTERM (it shuts down in order) and waits until it exited.
    public func stop(server: Int) async {
        await end(server, signal: SIGTERM)
    }

    /// Freezes `server` (SIGSTOP) and returns once all its threads stopped: its sockets stay open and nothing is
    /// answered, as with a server that hangs.
    public func pause(server: Int) async {
        guard let process = lock.withLock({ processes[server] }) else { return }
        process.send(SIGSTOP)
        // kill() only marks the signal: a thread stops when the kernel next runs it, and on a busy machine one still
        // answered a publish sent after kill() returned (a "hanging" server acknowledged it). Waited for in /proc.
        let deadline = ContinuousClock.now + .seconds(10)
        while !Self.allThreadsStopped(process.pid) && process.isRunning && ContinuousClock.now < deadline {
            try? await Task.sleep(for: .milliseconds(1))
        }
    }

    /// Whether every thread of `pid` is stopped: state "T" in `/proc/<pid>/task/<thread>/stat`.
    private static func allThreadsStopped(_ pid: pid_t) -> Bool {
        let tasks = "/proc/\(pid)/task"
        guard let threads = try? FileManager.default.contentsOfDirectory(atPath: tasks), !threads.isEmpty else {
            return false
        }
        return threads.allSatisfy { thread in
            // "<tid> (<name>) <state> …"; the name may hold spaces and parentheses.
            guard let stat = ProcFile.text("\(tasks)/\(thread)/stat"),
                let nameEnd = stat.lastIndex(of: ")")
            else { return false }
            return stat[stat.index(after: nameEnd)...].drop { $0 == " " }.first == "T"
        }
    }

    /// Lets a paused server go on (SIGCONT).
    public func resume(server: Int) {
        lock.withLock { processes[server] }?.send(SIGCONT)
    }

    /// Stops `server` if it runs, starts it again on the same ports with the same store, and waits until it accepts
    /// clients. (Whether JetStream has its streams back is for the caller to wait for.)
    public func restart(server: Int) async throws {
        await stop(server: server)
        let logged = log(of: server).utf8.count  // the restarted server appends to the same log
        try start(server)
        try await waitUntilAccepting(server, logFrom: logged)
    }

    /// Stops every server that runs (SIGTERM) and waits until they exited.
    public func stopAll() async {
        await stopAll(signal: SIGTERM)
    }

    /// Waits until JetStream answers and can make a stream with as many replicas as there are servers (a cluster has
    /// elected its meta leader), trying every 100 ms for up to `timeout`.
    public func waitUntilReady(timeout: Duration = .seconds(60)) async throws {
        let deadline = ContinuousClock.now + timeout
        let probe = StreamConfiguration(
            name: "READINESS_PROBE", subjects: ["readiness.probe"], replicas: servers.count, storage: .memory)
        var lastError: (any Error)?
        while ContinuousClock.now < deadline {
            do {
                let connection = try await NATSConnection.connect(
                    configuration(name: "readiness-probe", requestTimeout: .seconds(1)))
                do {
                    try await connection.createOrUpdateStream(probe)
                    try await connection.deleteStream(probe.name)
                    await connection.close()
                    return
                } catch {
                    await connection.close()
                    throw error
                }
            } catch {
                lastError = error
                try await Task.sleep(for: .milliseconds(100))
            }
        }
        let tails = servers.indices.map { "\(servers[$0].name): …" + log(of: $0).suffix(1500) }
        throw NATSClusterError(
            description:
                "JetStream was not ready within \(timeout): \(lastError.map { "\($0)" } ?? "no attempt"); the servers' logs end: \(tails.joined(separator: "\n"))"
        )
    }

    deinit {
        for process in processes.compactMap({ $0 }) where process.isRunning {
            process.send(SIGCONT)
            process.send(SIGKILL)
            process.reap()
        }
        try? FileManager.default.removeItem(at: directory)
    }

    private var logs: String { servers.indices.map { log(of: $0) }.joined(separator: "\n") }

    private func logFile(_ server: Server) -> URL { directory.appendingPathComponent("\(server.name).log") }

    private func start(_ index: Int) throws {
        guard FileManager.default.isExecutableFile(atPath: Self.executable) else {
            throw NATSClusterError(description: "\(Self.executable) is not installed: run Tools/install-deps")
        }
        let configuration = directory.appendingPathComponent("\(servers[index].name).conf")
        let process = try ChildProcess(Self.executable, ["-c", configuration.path])
        lock.withLock { processes[index] = process }
        try PeerDirectory.recordOwner(of: directory, process: servers[index].name, pid: process.pid)
    }

    private func end(_ index: Int, signal: Int32) async {
        guard let process = lock.withLock({ processes[index] }) else { return }
        lock.withLock { processes[index] = nil }
        // A paused server would never act on SIGTERM.
        process.send(SIGCONT)
        process.send(signal)
        await process.waitForExit()
    }

    private func stopAll(signal: Int32) async {
        for index in servers.indices { await end(index, signal: signal) }
    }

    /// Waits until the server says it is ready and its client port answers (or it exited, or 60 s passed). The port
    /// alone is not enough: another test's server may have taken it between its choice and the bind.
    private func waitUntilAccepting(_ index: Int, logFrom offset: Int = 0) async throws {
        let server = servers[index]
        let deadline = ContinuousClock.now + .seconds(60)
        while ContinuousClock.now < deadline {
            guard let process = lock.withLock({ processes[index] }), process.isRunning else {
                throw NATSClusterError(description: "nats-server \(server.name) exited at start: \(log(of: index))")
            }
            let started = String(decoding: log(of: index).utf8.dropFirst(offset), as: UTF8.self)
            if started.contains("Server is ready") && LoopbackPort.accepts(server.clientPort) { return }
            try await Task.sleep(for: .milliseconds(20))
        }
        throw NATSClusterError(
            description: "nats-server \(server.name) did not accept clients on port \(server.clientPort) within 60 s: "
                + log(of: index))
    }

    /// Writes each server's configuration: its ports, store and log, and in a cluster the routes to all three.
    private func writeConfigurations() throws {
        let routes = servers.map { "nats-route://127.0.0.1:\($0.clusterPort)" }.joined(separator: ", ")
        for server in servers {
            try FileManager.default.createDirectory(at: server.storeDirectory, withIntermediateDirectories: true)
            var lines = [
                "server_name: \(server.name)",
                "listen: 127.0.0.1:\(server.clientPort)",
                "jetstream {",
                "  store_dir: \"\(server.storeDirectory.path)\"",
                "  max_memory_store: 256MB",
                "  max_file_store: 1GB",
                "}",
                "log_file: \"\(logFile(server).path)\"",
            ]
            if let certificates {
                lines += [
                    "tls {", "  cert_file: \"\(certificates.serverCertificateFile)\"",
                    "  key_file: \"\(certificates.serverKeyFile)\"", "  ca_file: \"\(certificates.caFile)\"",
                    "  verify: \(clientCertificates)", "}",
                ]
            }
            if let userName {
                lines += ["authorization {", "  user: \"\(userName)\"", "  password: \"\(password ?? "")\"", "}"]
            }
            if servers.count > 1 {
                lines += [
                    "cluster {",
                    "  name: muster-test",
                    "  listen: 127.0.0.1:\(server.clusterPort)",
                    "  routes: [\(routes)]",
                    "}",
                ]
            }
            // Mode 0600 from the start: it may hold the password.
            let file = directory.appendingPathComponent("\(server.name).conf").path
            try? FileManager.default.removeItem(atPath: file)
            guard
                FileManager.default.createFile(
                    atPath: file, contents: Data((lines.joined(separator: "\n") + "\n").utf8),
                    attributes: [.posixPermissions: 0o600])
            else { throw NATSClusterError(description: "cannot write \(file)") }
        }
    }

    /// Free, distinct client ports (and cluster ports for a cluster) for `count` servers.
    private static func choosePorts(count: Int, in directory: URL) throws -> [Server] {
        var taken: Set<Int> = []
        func next() throws -> Int {
            while true {
                let port = try LoopbackPort.free()
                if taken.insert(port).inserted { return port }
            }
        }
        return try (1...count).map { number in
            Server(
                name: "s\(number)", clientPort: try next(), clusterPort: count > 1 ? try next() : 0,
                storeDirectory: directory.appendingPathComponent("s\(number)-store", isDirectory: true))
        }
    }

    static let executable = "/usr/sbin/nats-server"
}

/// Why the test servers could not be set up.
public struct NATSClusterError: Error, CustomStringConvertible {
    /// What went wrong, with the servers' logs when they tell why.
    public let description: String
}

extension NATSCluster {
    /// Whose turn it is to start servers.
    static let turns = Turns()

    /// One holder at a time, the others waiting in order.
    actor Turns {
        private var taken = false
        private var waiting: [CheckedContinuation<Void, Never>] = []

        func take() async {
            guard taken else {
                taken = true
                return
            }
            await withCheckedContinuation { waiting.append($0) }
        }

        func give() {
            if waiting.isEmpty { taken = false } else { waiting.removeFirst().resume() }
        }
    }
}
