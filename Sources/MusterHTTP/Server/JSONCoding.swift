import Foundation
import Hummingbird
import MusterWire
import NIOCore

/// Reads a request body as the wire does (`MusterJSON`): refused with 415 when it is not JSON, 400 when it
/// is empty or not valid JSON (RFC 8259, naming the line and column), and 400 naming a missing or mistyped member.
public struct MusterRequestDecoder: RequestDecoder {
    public init() {}

    public func decode<T: Decodable>(_ type: T.Type, from request: Request, context: some RequestContext)
        async throws -> T
    {
        let data = try await request.jsonBody(context: context)
        // The busiest routes' bodies are read without the decoder when they are plain (`PlainJSONDecodable`).
        if let plain = T.self as? any PlainJSONDecodable.Type, let body = plain.init(plainJSON: Array(data)) {
            return body as! T
        }
        // Foundation's decoder on Linux takes what is not JSON (a trailing comma) and names no place when it
        // refuses; the scanner is strict, as on the routes read without the decoder, and names line and column.
        _ = try JSONScanner.scan(Array(data), allowScalar: true)
        do {
            return try MusterJSON.decoder().decode(T.self, from: data)
        } catch let error as DecodingError {
            throw APIError.translating(error)
        }
    }
}

/// Writes an answer as the wire does (`MusterJSON`): keys sorted, slashes unescaped, times in UTC with milliseconds.
public struct MusterResponseEncoder: ResponseEncoder {
    public init() {}

    public func encode(_ value: some Encodable, from request: Request, context: some RequestContext) throws
        -> Response
    {
        if let writable = value as? any JSONWritable {
            return try JSONText(writable.jsonBytes()).response(from: request, context: context)
        }
        return try JSONText(MusterJSON.encoder().encode(value)).response(from: request, context: context)
    }
}

/// An answer whose body is JSON text already (an area in the Ubudu format, a stored payload, the events).
struct JSONText: ResponseGenerator {
    let json: ByteBuffer

    init(_ json: Data) { self.json = ByteBuffer(bytes: json) }
    init(_ json: [UInt8]) { self.json = ByteBuffer(bytes: json) }

    func response(from request: Request, context: some RequestContext) throws -> Response {
        Response(
            status: .ok, headers: [.contentType: "application/json; charset=utf-8"],
            body: .init(byteBuffer: json))
    }
}

extension Request {
    /// The body, at most the context's `maxUploadSize`, refused with 415 when its content type is missing or
    /// not JSON.
    func jsonBody(context: some RequestContext) async throws -> Data {
        let type = headers[.contentType]?.lowercased()
        guard let type, type.hasPrefix("application/json") || type.contains("+json") else {
            throw APIError(
                .unsupportedMediaType, "unsupported_media_type",
                "this route takes JSON; send Content-Type: application/json (got \(type ?? "no Content-Type"))")
        }
        let limit = context.maxUploadSize
        if let length = headers[.contentLength].flatMap({ Int($0) }), length > limit { throw Self.tooLarge(limit) }
        let buffer: ByteBuffer
        do {
            buffer = try await body.collect(upTo: limit)
        } catch let error as HTTPError where error.status == .contentTooLarge {
            throw Self.tooLarge(limit)
        } catch is NIOTooManyBytesError {
            throw Self.tooLarge(limit)
        }
        guard buffer.readableBytes > 0 else {
            throw APIError(.badRequest, "bad_request", "the body is empty; this route takes a JSON object")
        }
        return Data(buffer: buffer)
    }

    /// The 413 of a JSON body above `limit`, naming it.
    private static func tooLarge(_ limit: Int) -> APIError {
        APIError(
            .contentTooLarge, "too_large",
            "the JSON body is above this server's limit of \(limit) bytes (serve --max-body); send a smaller one",
            fields: [.init(field: "body", message: "at most \(limit) bytes")])
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
