import EventLog
import Foundation
import MusterClient

/// A running server and the login a domain verb acts with there: the client, who is logged in, and the
/// translation of the client's errors into the command line's one-line messages and exit statuses.
struct ServerSession: Sendable {
    /// The server, as given to `--server` or stored by `muster login`.
    let server: URL
    /// The client; it refreshes the tokens and saves them in the session file.
    let client: MusterClient
    /// The logged-in user; nil when no login to this server is stored.
    let username: String?
    /// The namespace of the login.
    let namespace: String
    /// Whether the login was an OpenID Connect sign-in (`muster login --oidc`).
    let signedInAtIssuer: Bool

    /// A session on `server` with the stored login, when that login is to this server.
    init(server: URL, stored: AuthTokens?) {
        let login = stored.flatMap { $0.server != nil && $0.belong(to: server) ? $0 : nil }
        self.server = server
        username = login?.username
        signedInAtIssuer = login?.serverType == .oauth
        namespace = login?.namespace ?? Names.defaultNamespace
        // Another server's login stays in the file, untouched: this client starts with none.
        let store: any TokenStore = login == nil ? InMemoryTokenStore() : SessionFile.store
        client = MusterClient(serverURL: server, namespace: login?.namespace, tokenStore: store)
    }

    /// What to run to log in (again).
    var loginCommand: String {
        "muster login --server \(server.absoluteString) " + (signedInAtIssuer ? "--oidc" : username ?? "USER")
    }

    /// Runs one client operation. A failure ends the command: invalid form values or payloads as
    /// ``FormProblems`` (reported as the local verbs report them), anything else as one line.
    func call<T>(_ operation: (MusterClient) async throws -> T) async throws -> T {
        do {
            return try await operation(client)
        } catch let error as MusterClientError {
            if error.statusCode == 422, !error.fields.isEmpty {
                throw FormProblems(
                    subject: error.code == .invalidPayload ? "payload" : "response", problems: error.fields)
            }
            throw failure(error)
        }
    }

    /// The command line's failure for a client error: the server's message and the contract's exit status.
    func failure(_ error: MusterClientError) -> CommandFailure {
        let message = error.message.split(whereSeparator: \.isNewline).joined(separator: " ")
        if error.code == .loginRequired || (error.requiresLogin && error.code != .invalidCredentials) {
            let reason =
                username == nil
                ? "not logged in to \(server.absoluteString)"
                : "the login of \(username ?? "") to \(server.absoluteString) has ended (\(error.code))"
            return .failed("\(reason); log in again: \(loginCommand)")
        }
        if error.code == .transport {
            // The client says "could not reach HOST: why"; the URL given says more than the host.
            let why = message.hasPrefix("could not reach ") ? message.split(separator: ": ", maxSplits: 1).last : nil
            return .failed("no answer from \(server.absoluteString): \(why.map(String.init) ?? message)")
        }
        switch error.statusCode {
        case 409: return CommandFailure(message: message, status: ExitStatus.conflict)
        case 400, 401, 404, 413, 415, 422: return .invalid(message)
        default:
            if error.code == .invalidArgument { return .invalid(message) }
            // A failure of the server itself: its request id finds the server's log line of it.
            let requestId = error.requestId.map { " (server request id \($0))" } ?? ""
            return .failed(message + ((error.statusCode ?? 0) >= 500 ? requestId : ""))
        }
    }

    /// A live stream of the client's as the command line reads it: each event through `transform`, and a failure of
    /// the stream as the command's failure. The stream reconnects quietly, so an unreachable server or a dead login
    /// fails here, before it starts.
    func relay<Event: Sendable & Hashable, Line: Sendable>(
        _ events: LiveStream<Event>, _ transform: @escaping @Sendable (LiveEvent<Event>) throws -> Line
    ) async throws -> AsyncThrowingStream<Line, any Error> {
        let verified = await client.verifyAuthToken()
        if let error = verified.error { throw failure(error) }
        return AsyncThrowingStream { continuation in
            let task = Task {
                do {
                    for try await event in events { continuation.yield(try transform(event)) }
                    continuation.finish()
                } catch let error as MusterClientError {
                    continuation.finish(throwing: failure(error))
                } catch {
                    continuation.finish(throwing: error)
                }
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }

    /// Refuses an option that names another user: over HTTP a verb acts as the logged-in user.
    func requireSelf(_ user: String?, option: String, why: String) throws {
        guard let user, user != username else { return }
        throw CommandFailure.invalid(
            "\(option) \(user): \(why); over HTTP you act as \(username ?? "the logged-in user") "
                + "(use --data on the server's data directory, or log in as \(user))")
    }

    /// Refuses a `--namespace` other than the login's: over HTTP a verb acts in the login's namespace. `--namespace
    /// default` given while logged in elsewhere is refused too: it names the default namespace, where nothing would
    /// happen.
    func requireNamespace(_ given: String?) throws {
        guard let given, given != namespace else { return }
        throw CommandFailure.invalid(
            "--namespace \(given): the login is in namespace \(namespace); log in with --namespace \(given)")
    }
}
