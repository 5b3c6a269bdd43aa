import EventLog
import Foundation
import Hummingbird
import Muster
import MusterWire

/// `/server` and `/auth/*`: the VantiqUI session operations — server type, login, refresh, verify, logout.
struct AuthController: APIController {
    let api: API

    func addRoutes(to routes: some RouterMethods<API.Context>) {
        routes
            .get("server", use: server)
            .post("auth/token", use: login)
            .post("auth/refresh", use: refresh)
            .post("auth/logout", for: .user, use: logout)
            .get("auth/verify", for: .user, use: verify)
    }

    @Sendable func server(_ request: Request, context: API.Context) async throws -> ServerInfo {
        ServerInfo(
            serverType: api.authenticator.serverType, version: MusterRelease.version,
            storeFormat: Int(api.log.configuration.formatVersion))
    }

    @Sendable func login(_ request: Request, context: API.Context) async throws -> Sessions.Tokens {
        guard case .internal = api.authenticator.mode else {
            throw APIError(
                .badRequest, "bad_request",
                "this server authenticates with OAuth: send the issuer's JWT as the bearer token instead of logging in here"
            )
        }
        let login = try await request.decode(as: LoginBody.self, context: context)
        return try await api.sessions.login(
            username: login.username, password: login.password,
            namespace: login.namespace ?? api.configuration.namespace, deviceId: login.deviceId,
            clientAddress: api.configuration.clientAddress(request, context))
    }

    /// The body of `POST /auth/refresh`.
    struct Refresh: Decodable { var refreshToken: String }

    @Sendable func refresh(_ request: Request, context: API.Context) async throws -> Sessions.Tokens {
        let refresh = try await request.decode(as: Refresh.self, context: context)
        do {
            return try await api.sessions.refresh(refreshToken: refresh.refreshToken)
        } catch AuthenticationError.tokenExpired {
            throw APIError(
                .unauthorized, "token_expired", "the refresh token expired; log in again (POST /api/v1/auth/token)")
        }
    }

    @Sendable func logout(_ request: Request, context: API.Context, caller _: API.Caller) async throws
        -> HTTPResponse.Status
    {
        if case .internal = api.authenticator.mode, let header = request.headers[.authorization] {
            try await api.sessions.logout(accessToken: String(header.dropFirst("Bearer ".count)))
        }
        return .noContent
    }

    @Sendable func verify(_ request: Request, context: API.Context, caller: API.Caller) async throws -> Verification {
        return Verification(
            authValid: true, username: caller.username, preferredUsername: caller.preferredUsername ?? caller.username,
            serverType: api.authenticator.serverType, isAdmin: caller.isAdmin, namespace: caller.namespace)
    }
}
