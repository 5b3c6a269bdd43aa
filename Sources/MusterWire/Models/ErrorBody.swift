/// The body of every failed answer of the API: `{"error":{"code","message","fields","requestId"}}`.
public struct ErrorBody: Sendable, Hashable, Codable {
    /// What went wrong.
    public struct Failure: Sendable, Hashable, Codable {
        /// A stable code, e.g. `invalid_values` (`Docs/HTTP.md` lists them).
        public var code: String
        /// One line saying what was wrong and what to do.
        public var message: String
        /// One entry per field at fault; nil (left out) when no field is.
        public var fields: [FieldError]?
        /// The id of the request, as the server's log lines and its `X-Request-Id` header name it; nil (left out)
        /// when the server answered before it had one (a refused connection, a request too slow to arrive) or is
        /// older than this member.
        public var requestId: String?
    }

    public var error: Failure

    /// Creates the body; `fields` is left out of the JSON when empty, `requestId` when nil.
    public init(code: String, message: String, fields: [FieldError] = [], requestId: String? = nil) {
        error = Failure(code: code, message: message, fields: fields.isEmpty ? nil : fields, requestId: requestId)
    }
}

/// One problem with one field of a submitted form or request body.
public struct FieldError: Sendable, Hashable, Codable {
    /// The field's `id` (a form field) or the body member's name.
    public var field: String
    /// What was wrong with it.
    public var message: String

    /// Creates a field error.
    public init(field: String, message: String) {
        self.field = field
        self.message = message
    }
}
