import AsyncHTTPClient
import Foundation
import HTTPTypes
import Hummingbird
import Muster
import NIOCore
import NIOHTTP1
import Replication

/// On a replica of a cluster's namespace: a write is sent on to the namespace's primary (the node its lease names) and
/// the primary's answer relayed, so clients — browsers included, which drop `Authorization` on a cross-origin
/// redirect — may talk to any node. Reads are answered here; one that would write (refused as `notPrimary`), or that
/// bears a token not yet replicated here, is sent on too. A request already forwarded once is answered here whatever
/// happens, so two nodes never pass one back and forth.
///
/// The primary counts a forwarded request by the client's address, not the replica's: the replica names it in
/// `Muster-Forwarded-For`, signed with the cluster's ``ForwardingKey``.
struct ForwardingMiddleware: RouterMiddleware {
    typealias Context = MusterRequestContext
    let cluster: ReplicatedNamespace
    /// The server's configuration: the largest body forwarded (`documentLimit`, also the least relayed), how the
    /// client's address is found, the cluster's key.
    let configuration: ServerConfiguration

    func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        guard request.headers[.forwardedBy] == nil else { return try await next(request, context) }
        let reads = reads(request)
        if !reads, cluster.role != .primary { return try await forward(request, context) }
        do {
            return try await next(request, context)
        } catch let error as ReplicationError where error.code == .notPrimary && reads {
            return try await forward(request, context)
        } catch AuthenticationError.tokenUnknown where reads && cluster.role != .primary {
            // A token the primary issued a moment ago, not yet replicated here.
            return try await forward(request, context)
        }
    }

    private func reads(_ request: Request) -> Bool {
        [HTTPRequest.Method.get, .head, .options].contains(request.method)
    }

    private func forward(_ request: Request, _ context: Context) async throws -> Response {
        guard let primary = try await cluster.primary(), primary.node != cluster.node else {
            throw ReplicationError(
                .unavailable, "namespace \(cluster.stream.namespace) has no primary node now; retry in a few seconds")
        }
        let base = primary.url.hasSuffix("/") ? String(primary.url.dropLast()) : primary.url
        var outgoing = HTTPClientRequest(url: base + request.uri.description)
        outgoing.method = .init(rawValue: request.method.rawValue)
        let own: [HTTPField.Name] = [.forwardedFor, .forwardedAt, .forwardedSignature]
        for field in request.headers where ![.connection, .contentLength].contains(field.name) {
            // What a client says in the headers the nodes sign is dropped, never passed on.
            guard !own.contains(field.name) else { continue }
            outgoing.headers.add(name: field.name.rawName, value: field.value)
        }
        outgoing.headers.add(name: HTTPField.Name.forwardedBy.rawName, value: cluster.node)
        if let key = configuration.forwardingKey, let address = configuration.clientAddress(request, context) {
            let claim = ForwardingKey.Claim(
                address: address, node: cluster.node, method: request.method.rawValue,
                target: request.uri.description, time: Int(Date().timeIntervalSince1970))
            outgoing.headers.add(name: HTTPField.Name.forwardedFor.rawName, value: address)
            outgoing.headers.add(name: HTTPField.Name.forwardedAt.rawName, value: String(claim.time))
            outgoing.headers.add(name: HTTPField.Name.forwardedSignature.rawName, value: key.signature(of: claim))
        }
        let body = try await request.body.collect(upTo: configuration.documentLimit)
        if body.readableBytes > 0 || !reads(request) { outgoing.body = .bytes(body) }
        let answer: HTTPClientResponse
        do {
            answer = try await ForwardingClient.shared.execute(outgoing, timeout: ForwardingClient.timeout)
        } catch {
            throw ReplicationError(
                .unavailable,
                "the primary of namespace \(cluster.stream.namespace), node \(primary.node) at \(primary.url), did not answer (\(error)); retry in a few seconds"
            )
        }
        var headers = HTTPFields()
        for (name, value) in answer.headers {
            guard let field = HTTPField.Name(name), ![.connection, .transferEncoding, .contentLength].contains(field)
            else { continue }
            headers.append(HTTPField(name: field, value: value))
        }
        headers[.forwardedBy] = primary.node
        let bytes = try await answer.body.collect(upTo: max(configuration.documentLimit, 64 << 20))
        return Response(
            status: .init(code: Int(answer.status.code), reasonPhrase: answer.status.reasonPhrase), headers: headers,
            body: .init(byteBuffer: bytes))
    }
}

extension HTTPField.Name {
    /// On a forwarded request, the node that forwarded it; on a relayed answer, the node that gave it.
    static let forwardedBy = Self("Muster-Forwarded-By")!
    /// On a forwarded request: the client's address, as the replica found it.
    static let forwardedFor = Self("Muster-Forwarded-For")!
    /// On a forwarded request: when the replica signed it (seconds since 1970).
    static let forwardedAt = Self("Muster-Forwarded-At")!
    /// On a forwarded request: the replica's signature of the address, the request and the time (``ForwardingKey``).
    static let forwardedSignature = Self("Muster-Forwarded-Signature")!
}

enum ForwardingClient {
    /// The client writes are forwarded with: a primary that does not take the connection fails the request at once
    /// (the shared client would try to connect again until the request's deadline), so the caller retries after the
    /// take-over instead of waiting for a dead node.
    /// How long a forwarded request may take: a primary that stopped (paused, cut off) still takes connections but
    /// answers nothing, and its lease lapses in seconds. A write answered so may still have been made: the client
    /// sends it again with the same idempotency key (`responseId`, an event id), as after any 503.
    static let timeout = TimeAmount.seconds(10)

    static let shared: HTTPClient = {
        var configuration = HTTPClient.Configuration()
        configuration.timeout.connect = .seconds(2)
        configuration.connectionPool.retryConnectionEstablishment = false
        return HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
    }()
}
