import Forms
import Foundation
import Synchronization

/// Payloads parsed once: many responses answer the same payload (every recipient of a send, every
/// user of a request template), and parsing is the costliest part of answering. Parsing is a pure
/// function of the bytes, so a parsed payload can be reused for equal bytes.
enum ParsedPayloads {
    /// Most payloads kept; the cache starts over when it is full.
    static let capacity = 512
    private static let cache = Mutex<[Data: Payload]>([:])

    /// `Payload.parse(bytes)`, from the cache when these bytes were parsed before.
    static func parse(_ bytes: Data) -> Payload {
        if let payload = cache.withLock({ $0[bytes] }) { return payload }
        let payload = Payload.parse(bytes)
        cache.withLock { cache in
            if cache.count >= capacity { cache.removeAll(keepingCapacity: true) }
            cache[bytes] = payload
        }
        return payload
    }
}
