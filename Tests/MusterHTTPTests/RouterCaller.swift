import Foundation
import Hummingbird
import Logging
import MusterHTTP
import NIOCore
import NIOEmbedded
import Synchronization

/// Sends requests straight to the server's router, like `HummingbirdTesting`'s router client, except that a live
/// stream (`text/event-stream`) is answered once its status and headers are known: its body never ends.
struct RouterCaller: Sendable {
    let responder: RouterResponder<MusterRequestContext>
    let logger = Logger(label: "muster.authorization-matrix")

    init(router: Router<MusterRequestContext>) { responder = router.buildResponder() }

    @discardableResult
    func send(
        _ method: HTTPRequest.Method, _ path: String, token: String? = nil, body: [UInt8]? = nil,
        contentType: String? = nil
    ) async throws -> APITester.Answer {
        var headers: HTTPFields = [:]
        if let token { headers[.authorization] = "Bearer \(token)" }
        if let contentType { headers[.contentType] = contentType }
        if let body { headers[.contentLength] = "\(body.count)" }
        let request = Request(
            head: HTTPRequest(
                method: method, scheme: "http", authority: "localhost", path: path, headerFields: headers),
            body: RequestBody(buffer: ByteBuffer(bytes: body ?? [])))
        var logger = logger
        logger[metadataKey: "hb.request.id"] = .string(UUID().uuidString)  // the context's id, as the server sets it
        let context = MusterRequestContext(
            source: ApplicationRequestContextSource(channel: NIOAsyncTestingChannel(), logger: logger))
        let response: Response
        do {
            response = try await responder.respond(to: request, context: context)
        } catch let error as any HTTPResponseError {
            return APITester.Answer(status: error.status, headers: [:], body: Data())
        }
        if response.headers[.contentType]?.hasPrefix("text/event-stream") == true {
            return APITester.Answer(status: response.status, headers: response.headers, body: Data())
        }
        let collected = Collected()
        try await response.body.write(Collector(collected: collected))
        return APITester.Answer(
            status: response.status, headers: response.headers,
            body: Data(collected.bytes.withLock { $0.readableBytesView }))
    }

    /// The bytes of one answer.
    final class Collected: Sendable {
        let bytes = Mutex(ByteBuffer())
    }

    struct Collector: ResponseBodyWriter {
        let collected: Collected

        func write(_ buffer: ByteBuffer) async throws {
            collected.bytes.withLock { bytes in
                var buffer = buffer
                bytes.writeBuffer(&buffer)
            }
        }

        func finish(_ trailingHeaders: HTTPFields?) async throws {}
    }
}
