import Foundation
import Hummingbird
import Muster

extension API {
    /// The VantiqUI session operations: server type, login, refresh, verify, logout.
    func addAuthRoutes(to group: RouterGroup<Context>) {
        group.get("server") { _, _ in
            struct Server: Encodable {
                var serverType: String
                var version: String
            }
            return try JSONCoding.response(Server(serverType: authenticator.serverType, version: MusterVersion.current))
        }

        group.post("auth/token") { request, context in
            guard case .internal = authenticator.mode else {
                throw APIError(
                    .badRequest, "bad_request",
                    "this server authenticates with OAuth: send the issuer's JWT as the bearer token instead of logging in here"
                )
            }
            struct Login: Decodable {
                var username: String
                var password: String
                var namespace: String?
                var deviceId: String?
            }
            let login = try await request.decode(Login.self)
            let tokens = try await sessions.login(
                username: login.username, password: login.password,
                namespace: login.namespace ?? configuration.namespace, deviceId: login.deviceId,
                clientAddress: configuration.clientAddress(request, context))
            return try JSONCoding.response(tokens)
        }

        group.post("auth/refresh") { request, _ in
            struct Refresh: Decodable { var refreshToken: String }
            let refresh = try await request.decode(Refresh.self)
            do {
                return try JSONCoding.response(try await sessions.refresh(refreshToken: refresh.refreshToken))
            } catch AuthenticationError.tokenExpired {
                throw APIError(
                    .unauthorized, "token_expired", "the refresh token expired; log in again (POST /api/v1/auth/token)")
            }
        }

        group.post("auth/logout") { request, context in
            _ = try context.caller()
            if case .internal = authenticator.mode, let header = request.headers[.authorization] {
                try await sessions.logout(accessToken: String(header.dropFirst("Bearer ".count)))
            }
            return emptyResponse(.noContent)
        }

        group.get("auth/verify") { _, context in
            struct Verified: Encodable {
                var authValid: Bool
                var username: String
                var preferredUsername: String
                var serverType: String
            }
            let caller = try context.caller()
            return try JSONCoding.response(
                Verified(
                    authValid: true, username: caller.username,
                    preferredUsername: caller.preferredUsername ?? caller.username,
                    serverType: authenticator.serverType))
        }
    }
}

/// The release's version, as `GET /api/v1/server` reports it.
public enum MusterVersion {
    public static let current = "0.1.0"
}
