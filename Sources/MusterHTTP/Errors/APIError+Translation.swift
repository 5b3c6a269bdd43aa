import EventLog
import Foundation
import Hummingbird
import Muster
import MusterWire
import NIOCore
import PushProviders
import Replication

extension APIError {
    /// The API's answer to whatever a route or middleware threw: bad input is a 4xx naming what was
    /// wrong; only a failure of the server itself is a 500.
    static func translating(_ error: any Error) -> APIError {
        switch error {
        case let error as APIError: error
        case let error as FormRejection:
            APIError(
                .unprocessableContent, error.subject == "payload" ? "invalid_payload" : "invalid_values",
                error.description, fields: error.problems.map { FieldProblem(field: $0.field, message: $0.message) })
        case let error as AuthenticationError: translating(error)
        case let error as MusterError: translating(error)
        case let error as StoreError: translating(error)
        case let error as ReplicationError: translating(error)
        case let error as PushConfigurationError: translating(error)
        case let error as DecodingError: translating(error)
        case let error as JSONScanner.Failure:
            APIError(.badRequest, "bad_request", "the body is not valid JSON: \(error); nothing was stored")
        case let error as HTTPError: translating(error)
        case is NIOTooManyBytesError:
            APIError(.contentTooLarge, "too_large", "the body is above this route's limit")
        case let error as any HTTPResponseError:
            APIError(error.status, code(for: error.status), "\(error.status.reasonPhrase): \(error)")
        case is CancellationError: APIError(.serviceUnavailable, "unavailable", "the server is shutting down; retry")
        default:
            APIError(.internalServerError, "internal", "the server failed: \(error); see its log")
        }
    }

    private static func translating(_ error: AuthenticationError) -> APIError {
        switch error {
        case .invalidCredentials:
            APIError(.unauthorized, "invalid_credentials", "wrong username or password")
        case .throttled(let seconds):
            APIError(
                .tooManyRequests, "throttled",
                "too many wrong passwords lately (at login or for a change of one's own); try again in \(seconds) s",
                retryAfter: seconds)
        case .tokenExpired:
            APIError(.unauthorized, "token_expired", "the access token expired; refresh it (POST /api/v1/auth/refresh)")
        case .tokenRevoked:
            APIError(.unauthorized, "token_revoked", "the token was revoked; log in again (POST /api/v1/auth/token)")
        case .tokenUnknown:
            APIError(.unauthorized, "token_unknown", "the token is not known; log in again (POST /api/v1/auth/token)")
        }
    }

    /// A rule of the domain refused: 4xx, naming the field it concerns; 415 for content that is not media of its
    /// kind, 413 beyond the user's document quota, 507 beyond the namespace's.
    private static func translating(_ error: MusterError) -> APIError {
        let fields = error.field.map { [FieldProblem(field: $0, message: error.message)] } ?? []
        return switch error.code {
        case .notFound: APIError(.notFound, "not_found", error.message, fields: fields)
        case .conflict: APIError(.conflict, "conflict", error.message, fields: fields)
        case .tooLarge: APIError(.contentTooLarge, "too_large", error.message, fields: fields)
        case .unsupportedMediaType: APIError(.unsupportedMediaType, "unsupported_media_type", error.message)
        case .userQuota: APIError(.contentTooLarge, "quota_exceeded", error.message)
        case .namespaceQuota:
            APIError(.init(code: 507, reasonPhrase: "Insufficient Storage"), "quota_exceeded", error.message)
        default: APIError(.badRequest, "bad_request", error.message, fields: fields)
        }
    }

    /// A cluster's namespace that takes no write here now: 503 to retry (the primary is changing, the cluster has no
    /// quorum, this node was fenced), 421 for a namespace this node does not serve.
    private static func translating(_ error: ReplicationError) -> APIError {
        switch error.code {
        case .notServed: APIError(.init(code: 421, reasonPhrase: "Misdirected Request"), "not_served", error.message)
        case .unavailable, .notPrimary:
            APIError(.serviceUnavailable, "unavailable", error.message, retryAfter: 1)
        default: APIError(.serviceUnavailable, "fenced", error.message, retryAfter: 5)
        }
    }

    /// A push source's setting that cannot be used: 400 naming the body member (`key`, not `--key-file`).
    private static func translating(_ error: PushConfigurationError) -> APIError {
        let field = member(for: error.argument)
        return APIError(
            .badRequest, "bad_request", "\(field): \(error.message)",
            fields: [FieldProblem(field: field, message: error.message)])
    }

    /// The member of `PushSourceBody` a command-line option of `muster push-sources add` fills.
    static func member(for argument: String) -> String {
        switch argument {
        case "--key-file": "key"
        case "--key-id": "keyId"
        case "--team-id": "teamId"
        case "--certificate": "certificate"
        case "--password", "--password-stdin": "password"
        case "--service-account": "serviceAccount"
        case "--topic": "topic"
        case "--subject": "subject"
        case "--endpoint": "endpoint"
        case "--sandbox": "sandbox"
        default: argument.hasPrefix("--") ? String(argument.dropFirst(2)) : argument
        }
    }

    private static func translating(_ error: StoreError) -> APIError {
        switch error.code {
        case .invalidArgument: APIError(.badRequest, "bad_request", error.message)
        case .notFound: APIError(.notFound, "not_found", error.message)
        case .conflict, .idempotency: APIError(.conflict, "conflict", error.message)
        case .tooLarge: APIError(.contentTooLarge, "too_large", error.message)
        // 507: the server's storage is full, not the server gone; reads and streams go on, and appends work
        // again once space is freed, without a restart.
        // Said without the store's own message: it names the server's paths, which are the operator's business.
        case .diskFull:
            APIError(
                .init(code: 507, reasonPhrase: "Insufficient Storage"), "insufficient_storage",
                "the server's disk is full; nothing was stored — retry later", retryAfter: 60)
        case .mapLimit:
            APIError(
                .init(code: 507, reasonPhrase: "Insufficient Storage"), "insufficient_storage",
                "the server's data file reached its size limit; nothing was stored — retry later", retryAfter: 60)
        // The disk failed (or a file could not be read or written): the store's message names the server's paths,
        // which the server's log keeps under the request's id.
        case .io:
            APIError(
                .internalServerError, "internal",
                "the server's storage failed (an I/O error); nothing was stored — retry later, and if it goes on "
                    + "tell the operator: the server's log has the cause under this request's id")
        case .closed, .cancelled:
            APIError(.serviceUnavailable, "unavailable", "the server is shutting down; retry", retryAfter: 1)
        // The server's own failure, its remedy in plain words: whoever reads the answer runs no commands here.
        default: APIError(.internalServerError, "internal", error.description)
        }
    }

    private static func translating(_ error: DecodingError) -> APIError {
        func path(_ context: DecodingError.Context) -> String {
            context.codingPath.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }.joined(separator: ".")
                .replacingOccurrences(of: ".[", with: "[")
        }
        switch error {
        case .keyNotFound(let key, let context):
            let field = (path(context).isEmpty ? "" : path(context) + ".") + key.stringValue
            return APIError(
                .badRequest, "bad_request", "member \(field) is missing",
                fields: [FieldProblem(field: field, message: "required")])
        case .typeMismatch(let type, let context), .valueNotFound(let type, let context):
            let field = path(context)
            let message = "expected \(expectation(type))"
            if field.isEmpty { return APIError(.badRequest, "bad_request", "the body: \(message)") }
            return APIError(
                .badRequest, "bad_request", "member \(field): \(message)",
                fields: [FieldProblem(field: field, message: message)])
        case .dataCorrupted(let context):
            let field = path(context)
            if field.isEmpty {
                return APIError(.badRequest, "bad_request", "the body is not valid JSON: \(context.debugDescription)")
            }
            let message = plain(context.debugDescription)
            return APIError(
                .badRequest, "bad_request", "member \(field): \(message)",
                fields: [FieldProblem(field: field, message: message)])
        @unknown default:
            return APIError(.badRequest, "bad_request", "the body could not be read: \(error)")
        }
    }

    private static func expectation(_ type: Any.Type) -> String {
        switch type {
        case is String.Type: "a string"
        case is Int.Type, is Int64.Type, is UInt64.Type: "an integer"
        case is Double.Type: "a number"
        case is Bool.Type: "true or false"
        case is UUID.Type: "a UUID such as 3f2c1a9e-7b1d-4c2e-9f00-1a2b3c4d5e6f"
        // JSONDecoder names an object or array it wanted by the Swift type it reads one into.
        case is [String: Any].Type: "a JSON object"
        case is [Any].Type: "a JSON array"
        default: "a \(type)"
        }
    }

    /// Foundation's words for a value it could not read, in the API's: which value was wrong and what was expected.
    private static func plain(_ description: String) -> String {
        if description.contains("UUID") { return "expected \(expectation(UUID.self))" }
        // "Cannot initialize Kind from invalid String value sms": an enumeration's raw value.
        if let range = description.range(of: "from invalid String value ") {
            return "\(String(reflecting: String(description[range.upperBound...]))) is not one of the accepted values"
        }
        return description
    }

    private static func translating(_ error: HTTPError) -> APIError {
        switch error.status {
        case .notFound: APIError(.notFound, "not_found", "no such route; see openapi.yaml")
        case .contentTooLarge: APIError(.contentTooLarge, "too_large", "the body is above this route's limit")
        default: APIError(error.status, code(for: error.status), error.body ?? error.status.reasonPhrase)
        }
    }

    /// The error code of a status that carries no more specific one.
    private static func code(for status: HTTPResponse.Status) -> String {
        switch status {
        case .notFound: "not_found"
        case .contentTooLarge: "too_large"
        case .methodNotAllowed: "method_not_allowed"
        case .unsupportedMediaType: "unsupported_media_type"
        case .unauthorized: "unauthenticated"
        case .forbidden: "forbidden"
        case .tooManyRequests: "throttled"
        case .serviceUnavailable: "unavailable"
        default: status.code < 500 ? "bad_request" : "internal"
        }
    }
}
