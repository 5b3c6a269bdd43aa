import Foundation
import MusterWire

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension MusterClientError {
    /// The error an HTTP answer carries: the server's `{"error": {"code", "message", "fields", "requestId"}}` (the
    /// last two optional: older servers write neither), or, when the
    /// body is not that shape (a proxy's page, an empty body), an `http_status` error naming the status.
    ///
    /// - Parameters:
    ///   - statusCode: the answer's HTTP status.
    ///   - body: the answer's body.
    ///   - retryAfter: the `Retry-After` header, when there is one (seconds).
    public init(statusCode: Int, body: Data, retryAfter: String? = nil) {
        let wait = retryAfter.flatMap { Int($0.trimmingCharacters(in: .whitespaces)) }.map { Duration.seconds($0) }
        if let envelope = try? JSONDecoder().decode(ErrorBody.self, from: body) {
            self.init(
                code: Code(rawValue: envelope.error.code), statusCode: statusCode, message: envelope.error.message,
                fields: envelope.error.fields ?? [], retryAfter: wait, requestId: envelope.error.requestId)
            return
        }
        let reason = HTTPURLResponse.localizedString(forStatusCode: statusCode)
        let excerpt =
            String(decoding: body.prefix(200), as: UTF8.self)
            .split(whereSeparator: \.isNewline).first.map(String.init)?
            .trimmingCharacters(in: .whitespaces) ?? ""
        let message = "the server answered HTTP \(statusCode) (\(reason))" + (excerpt.isEmpty ? "" : ": \(excerpt)")
        self.init(code: .httpStatus, statusCode: statusCode, message: message, retryAfter: wait)
    }

    /// The error of a request that got no answer: no connection, a timeout, a TLS failure, or cancellation.
    static func transport(_ error: any Error, url: URL?) -> MusterClientError {
        if let clientError = error as? MusterClientError { return clientError }
        if error is CancellationError || (error as? URLError)?.code == .cancelled {
            return MusterClientError(code: .cancelled, message: "the request was cancelled")
        }
        let place = url.flatMap { $0.host }.map { " \($0)" } ?? " the server"
        return MusterClientError(
            code: .transport, message: "could not reach\(place): \(error.localizedDescription)")
    }

    /// The error of an answer that is not the documented shape.
    static func invalidResponse(_ what: String, _ error: (any Error)? = nil) -> MusterClientError {
        var message = "the server's answer to \(what) is not the documented shape"
        if let error { message += ": \(describe(error))" }
        return MusterClientError(code: .invalidResponse, message: message)
    }

    /// A decoding error as one line: which member and what was wrong.
    private static func describe(_ error: any Error) -> String {
        guard let decodingError = error as? DecodingError else { return "\(error)" }
        func path(_ context: DecodingError.Context) -> String {
            let keys = context.codingPath.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }
            return keys.isEmpty ? "the body" : keys.joined(separator: ".")
        }
        switch decodingError {
        case .keyNotFound(let key, let context):
            return "\(path(context)) lacks \"\(key.stringValue)\""
        case .typeMismatch(_, let context), .valueNotFound(_, let context), .dataCorrupted(let context):
            return "\(path(context)): \(context.debugDescription)"
        @unknown default:
            return "\(decodingError)"
        }
    }
}
