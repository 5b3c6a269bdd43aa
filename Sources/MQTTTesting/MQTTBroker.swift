import EventLogTesting
import Foundation
import MQTT

#if canImport(Glibc)
    import Glibc
#endif

/// A real mosquitto broker (Debian's `/usr/sbin/mosquitto`) on a free loopback port, for tests and benchmarks.
///
/// It runs with a generated configuration in a temporary directory: `allow_anonymous false`, a password file
/// hashed by `mosquitto_passwd -U`, an ACL file from the users' topics, and persistence in its own directory, so
/// `restart()` keeps sessions and queued messages. Files holding passwords are mode 0600. Call `stop()` at the end;
/// `withMQTTBroker` does it even when the body throws; `deinit` kills a broker left running and removes its files.
/// Brokers of an earlier run that was killed before it could stop them are stopped by the next broker's start.
public final class MQTTBroker: @unchecked Sendable {
    /// The loopback port it listens on, the same across restarts.
    public private(set) var port: Int
    /// The broker's files: configuration, password and ACL files, persistence and log.
    public let directory: URL
    /// The users it accepts.
    public let users: [MQTTBrokerUser]
    private let lock = NSLock()
    private var process: ChildProcess?

    /// Starts a broker for `users` and waits until it accepts connections.
    ///
    /// - Parameters:
    ///   - settings: more lines for mosquitto.conf (for example `max_queued_messages 5000`).
    ///   - tls: listen with TLS only, with a certificate for 127.0.0.1 from a CA made for it (`caFile`).
    ///   - clientCertificates: TLS as with `tls`, taking only clients that show a certificate of that CA
    ///     (`clientTLS(commonName:)`), each as the user its common name names.
    public init(
        users: [MQTTBrokerUser], settings: [String] = [], tls: Bool = false, clientCertificates: Bool = false
    ) async throws {
        Self.stopOrphans()
        directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "\(Self.directoryPrefix)\(UUID().uuidString.prefix(8))", isDirectory: true)
        try FileManager.default.createDirectory(
            at: directory.appendingPathComponent("persistence"), withIntermediateDirectories: true)
        self.users = users
        port = try LoopbackPort.free()
        let listener =
            tls || clientCertificates
            ? try await Self.makeCertificates(in: directory, clientCertificates: clientCertificates) : []
        for attempt in 1...5 {
            try await writeFiles(settings: settings, tls: listener)
            do {
                try await start()
                return
            } catch is MQTTBrokerError where attempt < 5 && log.contains("Address already in use") {
                // Another process took the free port between its choice and mosquitto's bind (seen once in a full
                // test run): another port, a fresh log.
                await end(signal: SIGKILL)  // reaps the broker that exited
                try? FileManager.default.removeItem(at: directory.appendingPathComponent("mosquitto.log"))
                port = try LoopbackPort.free()
            }
        }
    }

    /// `mqtt://127.0.0.1:PORT`.
    public var url: String { "\(caFile == nil ? "mqtt" : "mqtts")://127.0.0.1:\(port)" }

    /// The broker's log so far, for reading a failure.
    public var log: String {
        (try? String(contentsOf: directory.appendingPathComponent("mosquitto.log"), encoding: .utf8)) ?? ""
    }

    /// A client configuration for `user` of this broker (its password from the user list), reconnecting quickly.
    public func configuration(
        user: String, clientID: String, protocolVersion: MQTTProtocolVersion = .v5,
        session: MQTTSession = .persistent(expiry: nil)
    ) -> MQTTConfiguration {
        MQTTConfiguration(
            host: "127.0.0.1", port: port, clientID: clientID, userName: user,
            password: users.first { $0.name == user }?.password, tls: caFile.map { MQTTTLS(caFile: $0) },
            protocolVersion: protocolVersion, keepalive: 10,
            session: session, reconnectDelay: .milliseconds(50), maximumReconnectDelay: .milliseconds(500))
    }

    /// Stops the broker with SIGTERM (it saves its persistence file) and waits until it exited.
    public func stop() async {
        await end(signal: SIGTERM)
    }

    /// Kills the broker with SIGKILL: what it had not saved is lost, as in a crash.
    public func kill() async {
        await end(signal: SIGKILL)
    }

    /// Freezes the broker (SIGSTOP): connections stay open and nothing is answered, as with a broker that hangs.
    public func pause() {
        lock.withLock { process }?.send(SIGSTOP)
    }

    /// Lets a paused broker go on (SIGCONT).
    public func resume() {
        lock.withLock { process }?.send(SIGCONT)
    }

    /// Stops the broker and starts it again on the same port with the same files, so persistent sessions and queued
    /// messages survive.
    public func restart() async throws {
        await stop()
        try await start()
    }

    deinit {
        if let process, process.isRunning {
            process.send(SIGKILL)
            process.reap()
        }
        try? FileManager.default.removeItem(at: directory)
    }

    private func start() async throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/sbin/mosquitto") else {
            throw MQTTBrokerError(description: "/usr/sbin/mosquitto is not installed: run Tools/install-deps")
        }
        let logged = log.utf8.count  // a restart appends to the same log
        let process = try ChildProcess(
            "/usr/sbin/mosquitto", ["-c", directory.appendingPathComponent("mosquitto.conf").path])
        lock.withLock { self.process = process }
        try PeerDirectory.recordOwner(of: directory, process: "mosquitto", pid: process.pid)
        try await waitUntilAccepting(process, logFrom: logged)
    }

    private func end(signal: Int32) async {
        guard let process = lock.withLock({ self.process }) else { return }
        lock.withLock { self.process = nil }
        process.send(signal)
        await process.waitForExit()
    }

    /// Waits until this mosquitto listens on its port and the port answers (or the process died, or 60 s passed: a
    /// full test run's load has kept a broker from opening its port for over 10 s). That something answers is not
    /// enough: another test's server may have taken the port between its choice and mosquitto's bind, and answer there
    /// while mosquitto exits with "Address already in use" (seen in CI: the tests' TLS client met a Hummingbird
    /// server).
    private func waitUntilAccepting(_ process: ChildProcess, logFrom offset: Int) async throws {
        let started = ContinuousClock.now
        let deadline = started + .seconds(60)
        var checks = 0
        var lastCheck = started
        var longestGap = Duration.zero
        // Checked after every sleep, the last one too: a test run whose cooperative threads were all busy for longer
        // than the deadline wakes this loop past it, and a broker listening by then is not a failure.
        while true {
            let logged = String(decoding: log.utf8.dropFirst(offset), as: UTF8.self)
            guard process.isRunning, !logged.contains("Address already in use") else {
                throw MQTTBrokerError(description: "mosquitto exited at start: \(log)")
            }
            let now = ContinuousClock.now
            longestGap = max(longestGap, now - lastCheck)
            lastCheck = now
            checks += 1
            let failure =
                LoopbackPort.listeningFailure(port, by: process.pid) ?? LoopbackPort.connectionFailure(port)
            guard let failure else { return }
            guard ContinuousClock.now < deadline else {
                // What the last check saw, and how often it could look: a failure here has been hard to read.
                throw MQTTBrokerError(
                    description: "mosquitto (pid \(process.pid)) did not accept connections on port \(port) within "
                        + "60 s: \(failure); \(checks) checks in \(ContinuousClock.now - started), the longest gap "
                        + "between two \(longestGap); its log: \(log)")
            }
            try await Task.sleep(for: .milliseconds(20))
        }
    }

    private func writeFiles(settings: [String], tls: [String]) async throws {
        let passwordFile = directory.appendingPathComponent("passwords")
        let aclFile = directory.appendingPathComponent("acl")
        // Created 0600 before the passwords go in, then hashed in place.
        try Self.writePrivate(users.map { "\($0.name):\($0.password)\n" }.joined(), to: passwordFile)
        try await Self.run("/usr/bin/mosquitto_passwd", ["-U", passwordFile.path])
        try Self.writePrivate(users.flatMap(\.aclLines).joined(separator: "\n"), to: aclFile)
        let user = String(cString: getpwuid(getuid()).pointee.pw_name)
        let configuration =
            [
                "per_listener_settings false",
                "listener \(port) 127.0.0.1",
            ] + tls + [
                "allow_anonymous false",
                "password_file \(passwordFile.path)",
                "acl_file \(aclFile.path)",
                "persistence true",
                "persistence_location \(directory.appendingPathComponent("persistence").path)/",
                "log_dest file \(directory.appendingPathComponent("mosquitto.log").path)",
                "log_type all",
                // Run as whoever runs the tests, so it can read the 0600 files (as root it would switch to `mosquitto`).
                "user \(user)",
            ] + settings
        try Self.writePrivate(
            configuration.joined(separator: "\n") + "\n", to: directory.appendingPathComponent("mosquitto.conf"))
    }

    private static func writePrivate(_ text: String, to url: URL) throws {
        guard FileManager.default.createFile(atPath: url.path, contents: nil, attributes: [.posixPermissions: 0o600])
        else { throw MQTTBrokerError(description: "cannot create \(url.path)") }
        let handle = try FileHandle(forWritingTo: url)
        defer { try? handle.close() }
        try handle.write(contentsOf: Data(text.utf8))
    }

    /// Runs a helper program to its end, off the cooperative threads (posix_spawn, not Foundation's `Process`, whose
    /// `waitUntilExit` spins a run loop on the calling thread).
    static func run(_ executable: String, _ arguments: [String]) async throws {
        let status = await (try ChildProcess(executable, arguments)).waitForExit()
        guard status == 0 else {
            throw MQTTBrokerError(
                description: "\(executable) \(arguments.joined(separator: " ")) exited with wait status \(status)")
        }
    }
}

/// Why the test broker could not be set up.
public struct MQTTBrokerError: Error, CustomStringConvertible {
    public let description: String
}

/// Runs `body` with a fresh broker and stops the broker afterwards, also when `body` throws.
public func withMQTTBroker<Result>(
    users: [MQTTBrokerUser], settings: [String] = [], tls: Bool = false, clientCertificates: Bool = false,
    _ body: (MQTTBroker) async throws -> Result
) async throws -> Result {
    let broker = try await MQTTBroker(
        users: users, settings: settings, tls: tls, clientCertificates: clientCertificates)
    do {
        let result = try await body(broker)
        await broker.stop()
        return result
    } catch {
        await broker.stop()
        throw error
    }
}
