import Foundation
import Hummingbird
import MusterWire

/// How the API reads and writes JSON: the wire's conventions (`MusterJSON`), the same as the SDK's.
enum JSONCoding {
    static var encoder: JSONEncoder { MusterJSON.encoder() }

    static var decoder: JSONDecoder { MusterJSON.decoder() }

    /// Most bytes of a JSON request body.
    static let bodyLimit = 1 << 20

    /// A JSON response.
    static func response(_ value: some Encodable, status: HTTPResponse.Status = .ok) throws -> Response {
        try response(encoder.encode(value), status: status)
    }

    /// A response whose body is JSON text already.
    static func response(_ json: Data, status: HTTPResponse.Status = .ok) -> Response {
        Response(
            status: status, headers: [.contentType: "application/json; charset=utf-8"],
            body: .init(byteBuffer: ByteBuffer(bytes: json)))
    }
}

extension Request {
    /// The body, at most `limit` bytes, refused with 415 when its content type is missing or not JSON.
    func jsonBody(limit: Int = JSONCoding.bodyLimit) async throws -> Data {
        let type = headers[.contentType]?.lowercased()
        guard let type, type.hasPrefix("application/json") || type.contains("+json") else {
            throw APIError(
                .unsupportedMediaType, "unsupported_media_type",
                "this route takes JSON; send Content-Type: application/json (got \(type ?? "no Content-Type"))")
        }
        let buffer = try await body.collect(upTo: limit)
        guard buffer.readableBytes > 0 else {
            throw APIError(.badRequest, "bad_request", "the body is empty; this route takes a JSON object")
        }
        return Data(buffer: buffer)
    }

    /// The body decoded as `T`; a missing or mistyped member is a 400 naming it.
    func decode<T: Decodable>(_ type: T.Type, limit: Int = JSONCoding.bodyLimit) async throws -> T {
        let data = try await jsonBody(limit: limit)
        do {
            return try JSONCoding.decoder.decode(T.self, from: data)
        } catch let error as DecodingError {
            if case .dataCorrupted(let context) = error, context.codingPath.isEmpty {
                let detail = (context.underlyingError as? NSError)?.userInfo[NSDebugDescriptionErrorKey] as? String
                throw APIError(
                    .badRequest, "bad_request", "the body is not valid JSON" + (detail.map { ": \($0)" } ?? ""))
            }
            throw APIError.translating(error)
        }
    }

    /// A query parameter parsed by `parse`, or nil when absent; a 400 naming it when malformed.
    func query<T>(_ name: String, _ expected: String, _ parse: (String) -> T?) throws -> T? {
        guard let text = uri.queryParameters.get(name) else { return nil }
        guard let value = parse(text) else {
            throw APIError(
                .badRequest, "bad_request", "query parameter \(name)=\(text) is not \(expected)",
                fields: [.init(field: name, message: "expected \(expected)")])
        }
        return value
    }
}
