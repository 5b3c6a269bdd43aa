import EventLogTesting
import Foundation

/// A throwaway PostgreSQL cluster on loopback, for pgbench: initdb into a temporary directory, start
/// on a free port with the socket in that directory, and always stop and remove it afterwards.
struct PostgresPeer {
    /// The server binaries: initdb, pg_ctl, psql, pgbench.
    struct Binaries {
        var initdb: String
        var pgCtl: String
        var psql: String
        var pgbench: String
    }

    /// What `pgbench` reported.
    struct Result {
        var tps: Double
        var latencyAverageMilliseconds: Double?
        var transactions: Int?
        var version: String
    }

    let binaries: Binaries
    /// initdb refuses root, so the cluster is run as this user when we are root.
    let user: String?

    /// Finds the binaries (newest `/usr/lib/postgresql/*/bin` first, then PATH); nil when missing.
    static func locate() -> PostgresPeer? {
        let versions = (try? FileManager.default.contentsOfDirectory(atPath: "/usr/lib/postgresql")) ?? []
        let directories = versions.sorted { (Int($0) ?? 0) > (Int($1) ?? 0) }.map { "/usr/lib/postgresql/\($0)/bin" }
        guard let initdb = ExternalCommand.find("initdb", in: directories),
            let pgCtl = ExternalCommand.find("pg_ctl", in: directories),
            let psql = ExternalCommand.find("psql", in: directories),
            let pgbench = ExternalCommand.find("pgbench", in: directories)
        else { return nil }
        var user: String?
        if geteuid() == 0 { user = getpwnam("postgres") != nil ? "postgres" : "nobody" }
        return PostgresPeer(binaries: Binaries(initdb: initdb, pgCtl: pgCtl, psql: psql, pgbench: pgbench), user: user)
    }

    /// Runs `script` with pgbench (`-n -c clients -j 2 -T seconds`) against a fresh cluster after
    /// `setup` SQL; the cluster is stopped and removed whatever happens.
    func bench(setup: String, script: String, clients: Int, seconds: Int) throws -> Result {
        try withCluster { connection, directory, version in
            try ExternalCommand(binaries.psql, connection + ["-d", "postgres", "-v", "ON_ERROR_STOP=1", "-c", setup])
                .run()
            let scriptFile = directory.appendingPathComponent("insert.sql")
            try script.write(to: scriptFile, atomically: true, encoding: .utf8)
            let outcome = try ExternalCommand(
                binaries.pgbench,
                connection + [
                    "-n", "-c", String(clients), "-j", "2", "-T", String(seconds), "-f", scriptFile.path, "postgres",
                ]
            ).run()
            return try Self.parse(outcome.output, version: version)
        }
    }

    /// Loads the lines of `file` with `COPY` into a fresh table of one `jsonb` column (each line checked as JSON,
    /// as Muster checks it) and a durable commit at the end. Returns lines per second and the server's version.
    func copyRate(file: URL, lines: Int) throws -> (rate: Double, version: String) {
        try withCluster { connection, _, version in
            let psql = connection + ["-d", "postgres", "-v", "ON_ERROR_STOP=1"]
            try ExternalCommand(binaries.psql, psql + ["-c", "CREATE TABLE imported (line jsonb NOT NULL)"]).run()
            let start = ContinuousClock.now
            let outcome = try ExternalCommand(
                binaries.psql, psql + ["-c", "\\copy imported (line) from '\(file.path)'"]
            )
            .run()
            let elapsed = seconds(since: start)
            guard outcome.output.contains("COPY \(lines)") else {
                throw BenchError.command("COPY did not load \(lines) lines: \(outcome.output.suffix(400))")
            }
            return (Double(lines) / elapsed, version)
        }
    }

    /// Starts a fresh cluster (initdb, pg_ctl start on a free loopback port, socket in a temporary directory), runs
    /// `body` with psql's connection arguments, the directory and the server's version line, and always stops and
    /// removes the cluster.
    private func withCluster<T>(_ body: (_ connection: [String], _ directory: URL, _ version: String) throws -> T)
        throws -> T
    {
        let directory = try TemporaryDirectory("muster-pg")
        defer { directory.remove() }
        if let user, let account = getpwnam(user) {
            chown(directory.url.path, account.pointee.pw_uid, account.pointee.pw_gid)
        }
        let data = directory.url.appendingPathComponent("data").path
        let socket = directory.url.path
        let versionLine = try ExternalCommand(binaries.pgCtl, ["--version"]).run().output
        try ExternalCommand(
            binaries.initdb, ["-D", data, "-U", "bench", "--auth=trust", "-E", "UTF8", "--locale=C", "--no-sync"],
            as: user
        ).run()
        let port = try LoopbackPort.free()
        let options =
            "-p \(port) -k \(socket) -c listen_addresses=127.0.0.1 -c synchronous_commit=on -c fsync=on -c max_connections=100"
        // Registered before the start, so a start that half-succeeded (server up, pg_ctl timed out) is stopped too.
        defer {
            _ = try? ExternalCommand(binaries.pgCtl, ["-D", data, "-m", "fast", "-w", "stop"], as: user).run(
                check: false)
        }
        try ExternalCommand(
            binaries.pgCtl, ["-D", data, "-l", "\(socket)/server.log", "-o", options, "-w", "-t", "60", "start"],
            as: user
        ).run()
        let connection = ["-h", socket, "-p", String(port), "-U", "bench"]
        return try body(connection, directory.url, versionLine.trimmingCharacters(in: .whitespacesAndNewlines))
    }

    /// Reads `tps = 1234.5 (without initial connection time)` and the latency average from pgbench.
    static func parse(_ output: String, version: String) throws -> Result {
        func number(after prefix: String) -> Double? {
            guard let line = output.split(separator: "\n").first(where: { $0.hasPrefix(prefix) }) else { return nil }
            return Double(line.dropFirst(prefix.count).split(separator: " ").first ?? "")
        }
        guard let tps = number(after: "tps = ") else {
            throw BenchError.parse("no `tps = ` line in pgbench output: \(output.suffix(600))")
        }
        return Result(
            tps: tps, latencyAverageMilliseconds: number(after: "latency average = "),
            transactions: number(after: "number of transactions actually processed: ").map { Int($0) }, version: version
        )
    }
}
