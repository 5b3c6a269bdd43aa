import Foundation
import MusterWire

/// Why an operation failed: the server's error (`{"error": {"code", "message", "fields"}}`) or the client's own.
///
/// `message` is the seed's `errorStr`; `statusCode` is the HTTP status, nil when no answer arrived.
public struct MusterClientError: Error, Sendable, Hashable {
    /// The server's error `code`, or one of the client's own (`transport`, `invalid_response`, …).
    public var code: Code
    /// The HTTP status of the answer; nil when the request never got one (no connection, bad token file).
    public var statusCode: Int?
    /// One line saying what was wrong and what to do.
    public var message: String
    /// The field-level problems of a 422 (`invalid_values`, `invalid_payload`) or 400; empty otherwise.
    public var fields: [FieldError]
    /// How long the server asks the client to wait before trying again (`Retry-After` of a 429 or 503).
    public var retryAfter: Duration?
    /// The server's id of the failed request, as its log lines name it (the body's `requestId`); nil when no answer
    /// arrived, the answer was not the server's error shape, or the server predates that member.
    public var requestId: String?

    /// Creates an error from its parts.
    public init(
        code: Code, statusCode: Int? = nil, message: String, fields: [FieldError] = [], retryAfter: Duration? = nil,
        requestId: String? = nil
    ) {
        self.code = code
        self.statusCode = statusCode
        self.message = message
        self.fields = fields
        self.retryAfter = retryAfter
        self.requestId = requestId
    }

    /// The seed's `errorStr`: the same text as `message`.
    public var errorStr: String { message }

    /// Whether the user must log in again (`authWithInternal` / `authWithOAuth`): the tokens are gone or dead.
    public var requiresLogin: Bool {
        [.loginRequired, .unauthenticated, .tokenExpired, .tokenRevoked, .tokenUnknown, .invalidCredentials]
            .contains(code)
    }

    /// Whether the same request may succeed later unchanged: no connection, throttled, or the server unavailable.
    public var isTransient: Bool {
        if code == .transport || code == .throttled || code == .unavailable { return true }
        if let statusCode { return statusCode == 408 || statusCode == 429 || statusCode >= 500 }
        return false
    }

    /// One problem with one field of a submitted form or request body, as the wire writes it.
    public typealias FieldError = MusterWire.FieldError

    /// An error code: the server's (`Docs/HTTP.md`) or the client's own; unknown server codes are kept as they are.
    public struct Code: RawRepresentable, Sendable, Hashable, Codable, CustomStringConvertible {
        /// The code as it is written on the wire, e.g. `invalid_values`.
        public var rawValue: String

        /// A code from its wire text.
        public init(rawValue: String) { self.rawValue = rawValue }

        /// The code's wire text.
        public var description: String { rawValue }

        /// 400: malformed JSON, a missing or mistyped member, a bad path or query parameter.
        public static let badRequest = Code(rawValue: "bad_request")
        /// 401: no bearer token.
        public static let unauthenticated = Code(rawValue: "unauthenticated")
        /// 401: wrong username or password.
        public static let invalidCredentials = Code(rawValue: "invalid_credentials")
        /// 401: the access token expired; the client refreshes it.
        public static let tokenExpired = Code(rawValue: "token_expired")
        /// 401: the token was revoked (logout, refresh); log in again.
        public static let tokenRevoked = Code(rawValue: "token_revoked")
        /// 401: the server does not know the token; log in again.
        public static let tokenUnknown = Code(rawValue: "token_unknown")
        /// 403: the caller's role does not allow the route, or registration is closed.
        public static let forbidden = Code(rawValue: "forbidden")
        /// 404: no such route, message, document, payload, request or device.
        public static let notFound = Code(rawValue: "not_found")
        /// 409: already answered, name taken, expected version.
        public static let conflict = Code(rawValue: "conflict")
        /// 413: the body is above the route's limit.
        public static let tooLarge = Code(rawValue: "too_large")
        /// 415: a JSON route was given another content type.
        public static let unsupportedMediaType = Code(rawValue: "unsupported_media_type")
        /// 422: a form payload that fails validation.
        public static let invalidPayload = Code(rawValue: "invalid_payload")
        /// 422: response values that fail validation.
        public static let invalidValues = Code(rawValue: "invalid_values")
        /// 429: too many failed logins or requests.
        public static let throttled = Code(rawValue: "throttled")
        /// 503: disk full, shutting down.
        public static let unavailable = Code(rawValue: "unavailable")

        /// Client: no tokens, or an expired access token without a refresh token; log in again.
        public static let loginRequired = Code(rawValue: "login_required")
        /// Client: no answer arrived (no connection, timeout, TLS); the request may be retried.
        public static let transport = Code(rawValue: "transport")
        /// Client: the operation was cancelled.
        public static let cancelled = Code(rawValue: "cancelled")
        /// Client: the server answered with something other than the documented shape.
        public static let invalidResponse = Code(rawValue: "invalid_response")
        /// Client: an argument cannot be sent (e.g. a non-finite coordinate).
        public static let invalidArgument = Code(rawValue: "invalid_argument")
        /// Client: the token store could not be read or written.
        public static let tokenStorage = Code(rawValue: "token_storage")
        /// Client: the location provider given to `processPushNotification` failed.
        public static let locationUnavailable = Code(rawValue: "location_unavailable")
        /// Client: an error status whose body is not the documented error shape (e.g. a proxy's 502 page).
        public static let httpStatus = Code(rawValue: "http_status")
    }
}

extension MusterClientError: CustomStringConvertible {
    /// One line: status, code, message and the field errors.
    public var description: String {
        var line = statusCode.map { "\($0) " } ?? ""
        line += "\(code): \(message)"
        if !fields.isEmpty {
            line += " (" + fields.map { "\($0.field): \($0.message)" }.joined(separator: "; ") + ")"
        }
        return line
    }
}

extension MusterClientError: LocalizedError {
    /// The message, for `localizedDescription` in an app.
    public var errorDescription: String? { message }
}
