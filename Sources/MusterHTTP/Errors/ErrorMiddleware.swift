import EventLog
import HTTPTypes
import Hummingbird
import Logging

/// Turns every error into the API's JSON error answer and logs it with the request id: a refusal
/// of bad input at info level, a failure of the server itself at error level.
struct ErrorMiddleware: RouterMiddleware {
    typealias Context = MusterRequestContext

    /// The routes' methods, to tell a wrong method on a known path (405) from an unknown path (404).
    let allowedMethods: AllowedMethods

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response)
        async throws -> Response
    {
        var response: Response
        do {
            response = try await next(request, context)
        } catch {
            var answer = APIError.translating(error)
            var allow: [HTTPRequest.Method] = []
            if let error = error as? HTTPError, error.status == .notFound {
                // The router found no route for this method and path: name the methods it has, if any.
                allow = allowedMethods.methods(for: request.uri.path)
                // A path a route's pattern seems to take but the router does not (`/topics` for `topics/**`, which
                // needs a segment) stays a 404: a 405 listing the very method would contradict itself.
                if allow.contains(request.method) { allow = [] }
                if !allow.isEmpty {
                    let names = allow.map(\.rawValue).joined(separator: ", ")
                    answer = APIError(
                        .methodNotAllowed, "method_not_allowed",
                        "\(request.method) is not a method of \(request.uri.path); it takes \(names)")
                }
            }
            let metadata: Logger.Metadata = [
                "method": "\(request.method)", "path": "\(request.uri.path)", "status": "\(answer.status.code)",
                "code": "\(answer.code)", "user": "\(context.callerName.value)",
            ]
            if answer.status.code >= 500 {
                // The answer leaves out what only the operator should see (the store's paths); the log keeps it.
                let cause = (error as? StoreError).map { $0.description == answer.message ? "" : " (\($0))" } ?? ""
                context.logger.error("failed: \(answer.message)\(cause)", metadata: metadata)
            } else {
                context.logger.info("refused: \(answer.message)", metadata: metadata)
            }
            response = try answer.response(from: request, context: context)
            if !allow.isEmpty { response.headers[.allow] = allow.map(\.rawValue).joined(separator: ", ") }
        }
        response.headers[.requestID] = context.id
        return response
    }
}

extension HTTPField.Name {
    /// The id of the request, as in the server's log lines.
    static let requestID = Self("X-Request-Id")!
}
