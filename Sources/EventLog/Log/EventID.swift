import Crypto
import Foundation
import Synchronization

/// Time-ordered event ids (UUID version 7, RFC 9562): 48 bits of Unix milliseconds, a 12-bit
/// counter within the millisecond, then random bits.
///
/// Ids made here sort in the order they were made (within this process), so the `eventIds` index
/// grows at its end — one dirty page per commit instead of one per event for random UUIDs.
public enum EventID {
    private struct State {
        var millis: UInt64 = 0
        var counter: UInt16 = 0
        /// Random words not used yet: drawn 512 at a time, as a system call per id cost more than the rest of it.
        var random: [UInt64] = []
    }

    private static let state = Mutex(State())

    /// A new id, greater than every id this process made before.
    public static func make(now: Date = Date()) -> UUID {
        let wall = UInt64(max(0, now.timeIntervalSince1970 * 1000))
        let (millis, counter, tail) = state.withLock { state -> (UInt64, UInt16, UInt64) in
            if wall > state.millis {
                (state.millis, state.counter) = (wall, 0)
            } else if state.counter < 0x0FFF {
                state.counter += 1
            } else {
                (state.millis, state.counter) = (state.millis + 1, 0)  // 4,096 ids in one millisecond: borrow the next
            }
            if state.random.isEmpty { state.random = randomWords() }
            return (state.millis, state.counter, state.random.removeLast())
        }
        func byte(_ value: UInt64, _ shift: UInt64) -> UInt8 { UInt8(truncatingIfNeeded: value >> shift) }
        return UUID(
            uuid: (
                byte(millis, 40), byte(millis, 32), byte(millis, 24), byte(millis, 16), byte(millis, 8),
                byte(millis, 0),
                0x70 | UInt8(counter >> 8), UInt8(truncatingIfNeeded: counter),
                0x80 | byte(tail, 58), byte(tail, 48), byte(tail, 40), byte(tail, 32), byte(tail, 24), byte(tail, 16),
                byte(tail, 8), byte(tail, 0)
            ))
    }

    /// 512 words from swift-crypto's generator (BoringSSL's `RAND_bytes`), which fills them in one go.
    private static func randomWords() -> [UInt64] {
        let key = SymmetricKey(size: SymmetricKeySize(bitCount: 512 * 64))
        return key.withUnsafeBytes { bytes in
            (0..<512).map { UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: $0 * 8, as: UInt64.self)) }
        }
    }
}
