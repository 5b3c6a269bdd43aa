import ArgumentParser
import Foundation
import MusterClient

/// `--server URL` of the domain verbs: act on a running server as the logged-in user instead of on a
/// data directory.
///
/// The rule: a verb acts on a server when `--server URL` is given, or when none of `--server`, `--data`
/// and `MUSTER_DATA` is and a login is stored (`muster login`); otherwise on the data directory.
struct RemoteOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "Act on the Muster server at URL as the user of muster login (default: the stored login's server, "
                + "unless --data or MUSTER_DATA is given).",
            valueName: "URL"))
    var server: String?

    /// The server the verb acts on; nil when it acts on the data directory.
    func session(data: DataOptions) throws -> ServerSession? {
        if let server {
            guard data.data == nil else {
                throw CommandFailure.invalid("give --server URL or --data DIR, not both")
            }
            return ServerSession(server: try Self.url(server), stored: try SessionFile.load())
        }
        guard data.data == nil, ProcessInfo.processInfo.environment["MUSTER_DATA"] == nil,
            let stored = try SessionFile.load(), let server = stored.server
        else { return nil }
        return ServerSession(server: server, stored: stored)
    }

    /// An http or https URL with a host, or a usage error.
    static func url(_ text: String) throws -> URL {
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased(), ["http", "https"].contains(scheme),
            url.host?.isEmpty == false
        else {
            throw CommandFailure.invalid("--server \(text) is not an http(s) URL such as http://localhost:8080")
        }
        return url
    }
}
