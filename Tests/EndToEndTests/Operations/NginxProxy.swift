import EventLogTesting
import Foundation

/// nginx (Debian's `nginx-light`) in the foreground on a loopback port, with the server block of Docs/operations.md:
/// its `listen` made a plain loopback port, its certificate lines dropped, its upstream the test's server, and the
/// `X-Accel-Buffering` header of Muster's answers ignored.
final class NginxProxy: Sendable {
    let port: Int
    let directory: TemporaryDirectory
    private let process: ChildProcess

    init(serverBlock: String, upstreamPort: Int) async throws {
        directory = try TemporaryDirectory("nginx")
        port = try LoopbackPort.free()
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
            try await eventually("nginx to accept on port \(port)") {
                guard process.isRunning else { throw MusterProcess.Unexpected("nginx ended: \(self.log)") }
                return LoopbackPort.accepts(port)
            }
        } catch {
            stop()
            throw error
        }
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
