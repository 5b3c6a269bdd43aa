import Foundation
import Hummingbird
import Muster
import MusterWire

/// `/server` and `/auth/*`: the VantiqUI session operations — server type, login, refresh, verify, logout.
struct AuthController {
    let api: API

    var endpoints: RouteCollection<API.Context> {
        RouteCollection(context: API.Context.self)
            .get("server", use: server)
            .post("auth/token", use: login)
            .post("auth/refresh", use: refresh)
            .post("auth/logout", use: logout)
            .get("auth/verify", use: verify)
    }

    @Sendable func server(_ request: Request, context: API.Context) async throws -> ServerInfo {
        ServerInfo(serverType: api.authenticator.serverType, version: MusterVersion.current)
    }

    /// The body of `POST /auth/token`.
    struct Login: Decodable {
        var username: String
        var password: String
        var namespace: String?
        var deviceId: String?
    }

    @Sendable func login(_ request: Request, context: API.Context) async throws -> Sessions.Tokens {
        guard case .internal = api.authenticator.mode else {
            throw APIError(
                .badRequest, "bad_request",
                "this server authenticates with OAuth: send the issuer's JWT as the bearer token instead of logging in here"
            )
        }
        let login = try await request.decode(as: Login.self, context: context)
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

    @Sendable func logout(_ request: Request, context: API.Context) async throws -> HTTPResponse.Status {
        _ = try context.caller()
        if case .internal = api.authenticator.mode, let header = request.headers[.authorization] {
            try await api.sessions.logout(accessToken: String(header.dropFirst("Bearer ".count)))
        }
        return .noContent
    }

    /// The answer of `GET /auth/verify`.
    struct Verified: ResponseEncodable {
        var authValid: Bool
        var username: String
        var preferredUsername: String
        var serverType: ServerType
    }

    @Sendable func verify(_ request: Request, context: API.Context) async throws -> Verified {
        let caller = try context.caller()
        return Verified(
            authValid: true, username: caller.username, preferredUsername: caller.preferredUsername ?? caller.username,
            serverType: api.authenticator.serverType)
    }
}

/// The release's version, as `GET /api/v1/server` reports it.
public enum MusterVersion {
    public static let current = "0.1.0"
}
