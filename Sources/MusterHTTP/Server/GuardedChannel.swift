import HummingbirdCore
import Logging
import NIOCore
import NIOHTTPTypesHTTP1

/// A Hummingbird connection with a `ConnectionGuard` around it: the guard's `Bytes` handler first in the
/// pipeline (it counts the connection against `maxConnections`), and — for plain HTTP/1.1, whose codec is
/// in the pipeline once set up — its `Parts` handler right after the HTTP codec (header and body timeouts).
///
/// Over TLS the protocol is chosen by ALPN after the handshake, so only the count applies there; Hummingbird's
/// idle timeout closes connections that stop sending.
struct GuardedChannel<Base: ServerChildChannel>: ServerChildChannel {
    typealias Value = Base.Value

    let base: Base
    let limits: ConnectionGuard.Limits
    let count: ConnectionGuard.Count
    /// Whether `Parts` goes after the HTTP/1.1 codec (plain HTTP/1.1 only).
    let guardsRequests: Bool

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        base.setup(channel: channel, logger: logger).flatMapThrowing { value in
            let handlers = ConnectionGuard(limits: limits, count: count).handlers
            let pipeline = channel.pipeline.syncOperations
            try pipeline.addHandler(handlers.bytes, position: .first)
            if guardsRequests {
                try pipeline.addHandler(
                    handlers.parts, position: .after(pipeline.handler(type: HTTP1ToHTTPServerCodec.self)))
            }
            return value
        }
    }

    func handle(value: Value, logger: Logger) async {
        await base.handle(value: value, logger: logger)
    }
}
