import EventLogTesting
import Foundation

/// nginx (Debian's `nginx-light`) in the foreground on a loopback port, with the server block of Docs/operations.md:
/// its `listen` made a plain loopback port, its certificate lines dropped, its upstream the test's server, and the
/// `X-Accel-Buffering` header of Muster's answers ignored.
final class NginxProxy: Sendable {
    let port: Int
    let directory: TemporaryDirectory
    private let process: ChildProcess

    /// nginx on a free port. The port is chosen, then bound by nginx: another test's server may take it in between,
    /// so nginx counts as started only once an answer on the port comes from nginx itself, and a port lost so is
    /// replaced by another.
    convenience init(serverBlock: String, upstreamPort: Int) async throws {
        var attempt = 1
        while true {
            let directory = try TemporaryDirectory("nginx")
            do {
                try await self.init(
                    serverBlock: serverBlock, upstreamPort: upstreamPort, port: try LoopbackPort.free(),
                    directory: directory)
                return
            } catch is PortLost where attempt < 3 {
                attempt += 1
            }
        }
    }

    /// nginx exited because its port was taken.
    struct PortLost: Error {}

    private init(serverBlock: String, upstreamPort: Int, port: Int, directory: TemporaryDirectory) async throws {
        self.directory = directory
        self.port = port
        let root = directory.url.path
        var block = serverBlock.split(separator: "\n", omittingEmptySubsequences: false).filter {
            !$0.contains("ssl_certificate")
        }.joined(separator: "\n")
        block = block.replacing(/listen 443 ssl;/, with: "listen 127.0.0.1:\(port);")
        block = block.replacing(
            /proxy_pass http:\/\/127\.0\.0\.1:8080;/, with: "proxy_pass http://127.0.0.1:\(upstreamPort);")
        guard block.contains("127.0.0.1:\(port)"), block.contains("127.0.0.1:\(upstreamPort)") else {
            throw MusterProcess.Unexpected(
                "the nginx block of operations.md lost its listen or proxy_pass line:\n\(serverBlock)")
        }
        let configuration = """
            daemon off;
            master_process off;
            pid \(root)/nginx.pid;
            error_log \(root)/error.log info;
            events { worker_connections 64; }
            http {
                access_log \(root)/access.log;
                client_body_temp_path \(root)/body;
                proxy_temp_path \(root)/proxy;
                fastcgi_temp_path \(root)/fastcgi;
                uwsgi_temp_path \(root)/uwsgi;
                scgi_temp_path \(root)/scgi;
                # Muster's streams say X-Accel-Buffering: no; ignored here, so the guide's block is what nginx obeys.
                proxy_ignore_headers X-Accel-Buffering;
            \(block)
            }

            """
        try Data(configuration.utf8).write(to: directory.url.appendingPathComponent("nginx.conf"))
        process = try ChildProcess(
            "/usr/sbin/nginx", ["-p", root, "-c", root + "/nginx.conf", "-e", root + "/error.log"],
            stdout: root + "/stdout", stderr: root + "/stderr")
        do {
            try await eventually("nginx to answer on port \(port)") {
                guard process.isRunning else {
                    if self.log.contains("Address already in use") { throw PortLost() }
                    throw MusterProcess.Unexpected("nginx ended: \(self.log)")
                }
                return LoopbackPort.accepts(port) && Self.answersAsNginx(port)
            }
        } catch {
            stop()
            throw error
        }
    }

    /// Whether what answers on `port` is nginx (its `Server` header), not a server that took the port first.
    private static func answersAsNginx(_ port: Int) -> Bool {
        guard let connection = try? RawConnection(port: port),
            (try? connection.send("HEAD /api/v1/server HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n")) != nil,
            let head = try? connection.blockingRead(until: "\r\n\r\n", limit: 5)
        else { return false }
        return head.lowercased().contains("\r\nserver: nginx")
    }

    /// nginx's error log and stderr: what a failure shows.
    var log: String {
        ["error.log", "stderr"].map {
            (try? String(contentsOf: directory.url.appendingPathComponent($0), encoding: .utf8)) ?? ""
        }.joined(separator: "\n")
    }

    /// Stops nginx (SIGTERM: its fast shutdown), waits until it exited, and removes its files.
    func stop() {
        if process.isRunning {
            process.send(SIGTERM)
        }
        process.reap()
        directory.remove()
    }
}
