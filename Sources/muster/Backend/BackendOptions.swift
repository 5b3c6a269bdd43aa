import ArgumentParser
import EventLog
import Foundation
import MusterClient

/// `--data DIR` or `--server URL` of the domain verbs, the one rule that picks where they act, and `--json`.
///
/// The rule: a verb acts on a server when `--server URL` is given, or when none of `--server`, `--data`
/// and `MUSTER_DATA` is and a login is stored (`muster login`); otherwise on the data directory.
struct BackendOptions: ParsableArguments {
    @OptionGroup var data: DataOptions
    @Option(
        help: ArgumentHelp(
            "Act on the Muster server at URL as the user of muster login (default: the stored login's server, "
                + "unless --data or MUSTER_DATA is given).",
            valueName: "URL"))
    var server: String?
    @Flag(
        help: """
            Print JSON: a list as one JSON array, refused values as {"errors":[…]} on stdout (output that is \
            JSON already stays as it is).
            """)
    var json = false

    /// Runs `body` on the backend the rule picks, acting in `namespace` (nil: the default, or the login's).
    /// With `creating`, a missing data directory is made rather than refused.
    func run<T>(
        namespace: String?, creating: Bool = false, _ body: (any Backend) async throws -> T
    ) async throws -> T {
        if let session = try session() {
            try session.requireNamespace(namespace)
            return try await body(session)
        }
        return try await data.withLog(creating: creating) { log in
            try await body(LocalBackend(log: log, namespace: namespace ?? Names.defaultNamespace))
        }
    }

    /// Runs `body` as ``run(namespace:creating:_:)`` does and prints the rows it gives: an aligned table, or
    /// one JSON array with `--json`.
    func printRows<Row: TableRow>(namespace: String?, _ body: (any Backend) async throws -> [Row]) async throws {
        try Output.rows(try await run(namespace: namespace, body), json: json)
    }

    /// Reads a form payload from `argument` (JSON, or `-` for stdin), hands it to `body` on the backend (a
    /// missing data directory is made) and prints what `body` gives as JSON; a refused form ends the command as
    /// the contract says.
    func submit(
        _ argument: String, namespace: String?, _ body: (any Backend, Data) async throws -> some Encodable
    ) async throws {
        let text = FormErrorOutput.read(argument)
        let result = try await FormErrorOutput.reporting(json: json) {
            try await run(namespace: namespace, creating: true) { try await body($0, text) }
        }
        try Output.json(result)
    }

    /// The server the verb acts on; nil when it acts on the data directory.
    func session() throws -> ServerSession? {
        if let server {
            guard data.data == nil else {
                throw CommandFailure.invalid("give --server URL or --data DIR, not both")
            }
            return ServerSession(server: try Self.url(server), stored: try SessionFile.load())
        }
        guard data.isDefault, let stored = try SessionFile.load(), let server = stored.server
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
