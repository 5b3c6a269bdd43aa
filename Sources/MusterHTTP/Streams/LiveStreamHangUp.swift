import NIOCore
import NIOHTTPTypes

/// Closes an HTTP/1.1 connection whose client closes its side while a live stream (`text/event-stream`) is answered:
/// an event stream's client sends nothing after its request, so that client has left, and closing the connection
/// ends the stream at once (`EventStream` ends with its connection).
///
/// Hummingbird keeps a half-closed connection open, for clients that close their side once the request is sent and
/// wait for the answer; that stays so for every other answer. Without this, a quiet stream went on until a write
/// failed — two or three keep-alives after its client had gone, since a write after the client's close still succeeds
/// once or twice. Over plain HTTP/1.1 the close is the client's FIN; over TLS its close_notify or a FIN without one.
/// An HTTP/2 stream never reports its input closed (its request ends with END_STREAM); it closes when the client
/// resets or leaves.
final class LiveStreamHangUp: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    /// The answer under way is a live stream.
    private var streaming = false
    /// The client closed its side of the connection.
    private var inputClosed = false

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        switch unwrapOutboundIn(data) {
        case .head(let head): streaming = head.headerFields[.contentType]?.hasPrefix("text/event-stream") == true
        case .body: break
        case .end: streaming = false
        }
        context.write(data, promise: promise)
        if streaming && inputClosed { context.close(promise: nil) }
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if case .inputClosed = event as? ChannelEvent {
            inputClosed = true
            if streaming { return context.close(promise: nil) }
        }
        context.fireUserInboundEventTriggered(event)
    }
}
