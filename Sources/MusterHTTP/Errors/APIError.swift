import Foundation
import Hummingbird
import MusterWire

/// A failure as the API reports it: a status, a stable code, one line saying what was wrong and what
/// to do, and for field-level problems one entry per field.
///
/// `{"error": {"code": "…", "message": "…", "fields": [{"field": "…", "message": "…"}], "requestId": "…"}}`
public struct APIError: Error, Sendable, HTTPResponseError, CustomStringConvertible {
    /// One problem with one field, as the wire writes it.
    public typealias FieldProblem = FieldError

    public var status: HTTPResponse.Status
    public var code: String
    public var message: String
    public var fields: [FieldProblem]
    /// Seconds to wait, for 429 and 503 answers.
    public var retryAfter: Int?

    public init(
        _ status: HTTPResponse.Status, _ code: String, _ message: String, fields: [FieldProblem] = [],
        retryAfter: Int? = nil
    ) {
        self.status = status
        self.code = code
        self.message = message
        self.fields = fields
        self.retryAfter = retryAfter
    }

    public var description: String { "\(status.code) \(code): \(message)" }

    /// The JSON body, without a request id (for answers given before a request had one).
    public var json: Data { json(requestId: nil) }

    /// The JSON body, naming the request it answers when `requestId` is given.
    public func json(requestId: String?) -> Data {
        let body = ErrorBody(code: code, message: message, fields: fields, requestId: requestId)
        return (try? MusterJSON.encoder().encode(body)) ?? Data(#"{"error":{"code":"internal","message":"?"}}"#.utf8)
    }

    /// The answer, its body and `X-Request-Id` header naming the request's id (the one its log lines carry).
    public func response(from request: Request, context: some RequestContext) throws -> Response {
        var headers: HTTPFields = [.contentType: "application/json; charset=utf-8", .requestID: context.id]
        if let retryAfter { headers[.retryAfter] = String(retryAfter) }
        let body = ByteBuffer(bytes: json(requestId: context.id))
        return Response(status: status, headers: headers, body: .init(byteBuffer: body))
    }
}
