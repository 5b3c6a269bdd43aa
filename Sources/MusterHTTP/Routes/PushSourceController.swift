import Foundation
import Hummingbird
import Muster
import MusterWire
import PushDelivery

/// `/push/sources` and `/push/vapid-public-key`: the namespace's push sources — configured, listed, removed and
/// tried by administrators — and the Web Push key any user's browser subscribes with.
struct PushSourceController: APIController {
    let api: API

    func addRoutes(to routes: some RouterMethods<API.Context>) {
        routes
            .get("push/sources", for: .administrator, use: list)
            .post("push/sources", for: .administrator, use: configure)
            .delete("push/sources/:name", for: .administrator, use: remove)
            .post("push/sources/:name/test", for: .administrator, use: test)
            .get("push/vapid-public-key", for: .user, use: vapidPublicKey)
    }

    var sources: PushSources { PushSources(log: api.log) }

    @Sendable func list(_ request: Request, context: API.Context, caller: API.Caller) async throws -> [PushSource] {
        try sources.list(namespace: caller.namespace).map(PushSource.init)
    }

    /// Checks the body as the command line does (a `PushConfigurationError` is a 400 naming the member), then
    /// stores the source; the secret members go to the secret store, never to the log.
    @Sendable func configure(_ request: Request, context: API.Context, caller: API.Caller) async throws
        -> EditedResponse<PushSource>
    {
        let body = try await request.decode(as: PushSourceBody.self, context: context)
        let prepared = try PushSourceSetup.prepare(body)
        let configured = try await sources.configure(
            body.name, kind: prepared.kind, details: prepared.details, endpoint: prepared.endpoint,
            secret: prepared.secret, namespace: caller.namespace, actor: caller.username)
        return EditedResponse(status: .created, response: PushSource(configured))
    }

    @Sendable func remove(_ request: Request, context: API.Context, caller: API.Caller) async throws
        -> HTTPResponse.Status
    {
        let name = try context.pathParameter("name")
        try await sources.remove(name, namespace: caller.namespace, actor: caller.username)
        return .noContent
    }

    /// Sends a test push through the source to each of the user's devices it reaches, at once.
    @Sendable func test(_ request: Request, context: API.Context, caller: API.Caller) async throws
        -> [PushTestResult]
    {
        let name = try context.pathParameter("name")
        let body = try await request.decode(as: PushTestBody.self, context: context)
        return try await PushSourceTest.run(
            source: name, user: body.user, namespace: caller.namespace, log: api.log,
            options: api.configuration.pushConnections
        ).map(PushTestResult.init)
    }

    /// The public key of the namespace's first Web Push source by name, or of the one `?source=` names.
    @Sendable func vapidPublicKey(_ request: Request, context: API.Context, caller: API.Caller) async throws
        -> VAPIDPublicKey
    {
        let named = request.uri.queryParameters.get("source").map { String($0) }
        let webPush = try sources.list(namespace: caller.namespace).filter {
            $0.kind == .webpush && (named == nil || $0.name == named)
        }
        guard let source = webPush.first, let key = source.details.first(where: { $0.name == "publicKey" })
        else {
            let which = named.map { "no Web Push source \(String(reflecting: $0))" } ?? "no Web Push source"
            throw APIError(
                .notFound, "not_found",
                "\(which) in namespace \(caller.namespace); an administrator adds one (POST /api/v1/push/sources with kind webpush, or muster push-sources add webpush NAME --subject mailto:…)"
            )
        }
        return VAPIDPublicKey(source: source.name, publicKey: key.value)
    }
}

extension PushTestResult {
    /// A device's test outcome as the wire shows it.
    public init(_ result: PushSourceTest.Result) {
        self.init(deviceId: result.deviceId, outcome: result.outcome, status: result.status, detail: result.detail)
    }
}
