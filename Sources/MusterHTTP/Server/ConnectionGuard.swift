import Foundation
import HTTPTypes
import NIOCore
import NIOHTTP1
import NIOHTTPTypes
import Synchronization

/// What one connection may hold of the server: a request's headers must arrive within
/// `headerTimeout` of its first byte, its body may pause at most `bodyTimeout`, and no more than
/// `maxConnections` are open at once. A connection that breaks a limit is told why (a JSON error, as
/// every other refusal) and closed. Time between requests is Hummingbird's idle timeout; time spent
/// answering (a live stream) is not limited here.
///
/// Two handlers share one guard per connection, both on the connection's event loop only: `Bytes`
/// in front of the HTTP decoder (it sees that a request has begun before its headers are complete),
/// and `Parts` after it (it sees the head, the body and the answer).
final class ConnectionGuard {
    struct Limits: Sendable {
        var headerTimeout: TimeAmount
        var bodyTimeout: TimeAmount
        var maxConnections: Int
    }

    /// The open connections of one server.
    final class Count: Sendable {
        private let open = Atomic<Int>(0)

        init() {}

        /// Counts a connection in; false when that would be more than `limit`.
        func enter(limit: Int) -> Bool {
            if open.add(1, ordering: .relaxed).newValue <= limit { return true }
            open.subtract(1, ordering: .relaxed)
            return false
        }

        func leave() { open.subtract(1, ordering: .relaxed) }
    }

    private enum State {
        /// Between requests: Hummingbird's idle timeout applies.
        case idle
        /// The first bytes of a request came; its headers must be complete by `deadline`.
        case head(deadline: NIODeadline)
        /// The head came; the next part of the body must come by `deadline`.
        case body(deadline: NIODeadline)
        /// The request is read; the server is answering.
        case answering
    }

    private let limits: Limits
    private let count: Count
    private var state = State.idle
    private var counted = false
    private var refused = false
    private var timer: (task: Scheduled<Void>, deadline: NIODeadline)?
    /// The `Parts` handler's place in the pipeline: answers are written from there, behind the codec.
    private var answering: ChannelHandlerContext?

    init(limits: Limits, count: Count) {
        self.limits = limits
        self.count = count
    }

    /// The two handlers, in pipeline order.
    var handlers: (bytes: Bytes, parts: Parts) { (Bytes(self), Parts(self)) }

    private var deadline: NIODeadline? {
        switch state {
        case .head(let deadline), .body(let deadline): deadline
        case .idle, .answering: nil
        }
    }

    /// Arms the timer for the current deadline, unless one is armed for it or earlier; a timer that
    /// fires early (the deadline moved on) re-arms itself, so a body's every part costs no new timer.
    private func arm() {
        guard let deadline, let context = answering else { return }
        if let timer {
            guard deadline < timer.deadline else { return }
            timer.task.cancel()
        }
        let task = context.eventLoop.assumeIsolated().scheduleTask(deadline: deadline) { [self] in
            timer = nil
            guard let current = self.deadline else { return }
            if current > .now() { return arm() }
            let what = if case .head = state { "its headers" } else { "the next part of its body" }
            let seconds = if case .head = state { limits.headerTimeout } else { limits.bodyTimeout }
            refuse(
                .requestTimeout, "request_timeout",
                "the request sent \(what) too slowly (limit \(seconds.nanoseconds / 1_000_000_000) s); send it again")
        }
        timer = (task, deadline)
    }

    /// Answers with a JSON error and closes, when no answer is under way; otherwise just closes.
    private func refuse(_ status: HTTPResponse.Status, _ code: String, _ message: String) {
        guard let context = answering else { return }
        if case .answering = state {
            context.close(promise: nil)
            return
        }
        state = .answering
        let body = ByteBuffer(bytes: APIError(status, code, message).json)
        let head = HTTPResponse(
            status: status,
            headerFields: [
                .contentType: "application/json; charset=utf-8", .contentLength: String(body.readableBytes),
                .connection: "close",
            ])
        context.write(NIOAny(HTTPResponsePart.head(head)), promise: nil)
        context.write(NIOAny(HTTPResponsePart.body(body)), promise: nil)
        context.writeAndFlush(NIOAny(HTTPResponsePart.end(nil))).assumeIsolated().whenComplete { _ in
            context.close(promise: nil)
        }
    }
}

extension ConnectionGuard {
    /// In front of the HTTP decoder: counts the connection and notices a request's first bytes.
    final class Bytes: ChannelInboundHandler, RemovableChannelHandler {
        typealias InboundIn = ByteBuffer
        typealias InboundOut = ByteBuffer

        private let owner: ConnectionGuard

        init(_ owner: ConnectionGuard) { self.owner = owner }

        /// Added after the connection became active (Hummingbird sets the pipeline up first).
        func handlerAdded(context: ChannelHandlerContext) {
            if context.channel.isActive { enter(context) }
        }

        func channelActive(context: ChannelHandlerContext) {
            enter(context)
            context.fireChannelActive()
        }

        private func enter(_ context: ChannelHandlerContext) {
            guard !owner.counted, !owner.refused else { return }
            guard owner.count.enter(limit: owner.limits.maxConnections) else {
                owner.refused = true
                // Refused before any byte is read: a plain answer, since the HTTP codec is behind us.
                let json = APIError(
                    .serviceUnavailable, "too_many_connections",
                    "the server holds its limit of \(owner.limits.maxConnections) connections; try again shortly",
                    retryAfter: 1
                ).json
                var buffer = context.channel.allocator.buffer(capacity: 200 + json.count)
                buffer.writeString(
                    "HTTP/1.1 503 Service Unavailable\r\nContent-Type: application/json; charset=utf-8\r\n"
                        + "Content-Length: \(json.count)\r\nRetry-After: 1\r\nConnection: close\r\n\r\n")
                buffer.writeBytes(json)
                context.writeAndFlush(NIOAny(buffer)).assumeIsolated().whenComplete { _ in context.close(promise: nil) }
                return
            }
            owner.counted = true
        }

        func channelInactive(context: ChannelHandlerContext) {
            if owner.counted {
                owner.counted = false
                owner.count.leave()
            }
            owner.timer?.task.cancel()
            owner.timer = nil
            context.fireChannelInactive()
        }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            guard owner.counted else { return }  // a refused connection reads nothing
            if case .idle = owner.state {
                owner.state = .head(deadline: .now() + owner.limits.headerTimeout)
                owner.arm()
            }
            context.fireChannelRead(data)
        }
    }

    /// After the HTTP decoder: follows the request's parts and the answer, and turns a request the
    /// decoder cannot read (a URL or header over its limits) into a JSON 400.
    final class Parts: ChannelDuplexHandler, RemovableChannelHandler {
        typealias InboundIn = HTTPRequestPart
        typealias InboundOut = HTTPRequestPart
        typealias OutboundIn = HTTPResponsePart
        typealias OutboundOut = HTTPResponsePart

        private let owner: ConnectionGuard

        init(_ owner: ConnectionGuard) { self.owner = owner }

        func handlerAdded(context: ChannelHandlerContext) { owner.answering = context }

        func handlerRemoved(context: ChannelHandlerContext) { owner.answering = nil }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            switch unwrapInboundIn(data) {
            case .head:
                owner.state = .body(deadline: .now() + owner.limits.bodyTimeout)
                owner.arm()
            case .body:
                if case .body = owner.state { owner.state = .body(deadline: .now() + owner.limits.bodyTimeout) }
            case .end:
                owner.state = .answering
            }
            context.fireChannelRead(data)
        }

        func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
            if case .end = unwrapOutboundIn(data) { owner.state = .idle }
            context.write(data, promise: promise)
        }

        func errorCaught(context: ChannelHandlerContext, error: any Error) {
            guard let error = error as? HTTPParserError else { return context.fireErrorCaught(error) }
            owner.refuse(.badRequest, "bad_request", Self.explain(error))
        }

        private static func explain(_ error: HTTPParserError) -> String {
            switch error {
            case .headerOverflow:
                "the request's URL or headers are longer than the server reads (80 KiB); send a shorter request"
            case .invalidURL: "the request's URL is not valid"
            default: "the request is not valid HTTP/1.1 (\(error))"
            }
        }
    }
}
