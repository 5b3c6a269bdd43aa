import HummingbirdCore
import Logging
import NIOCore
import NIOHTTPTypesHTTP1

/// Hummingbird's HTTP/1.1 connection with a `ConnectionGuard` around its decoder: the guard's
/// `Bytes` handler first in the pipeline, its `Parts` handler right after the HTTP codec.
struct GuardedHTTP1Channel: ServerChildChannel {
    typealias Value = HTTP1Channel.Value

    let http1: HTTP1Channel
    let limits: ConnectionGuard.Limits
    let count: ConnectionGuard.Count

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        http1.setup(channel: channel, logger: logger).flatMapThrowing { value in
            let handlers = ConnectionGuard(limits: limits, count: count).handlers
            let pipeline = channel.pipeline.syncOperations
            try pipeline.addHandler(handlers.bytes, position: .first)
            try pipeline.addHandler(
                handlers.parts, position: .after(pipeline.handler(type: HTTP1ToHTTPServerCodec.self)))
            return value
        }
    }

    func handle(value: Value, logger: Logger) async {
        await http1.handle(value: value, logger: logger)
    }
}
