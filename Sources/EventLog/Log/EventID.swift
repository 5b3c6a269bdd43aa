import Foundation
import Synchronization

/// Time-ordered event ids (UUID version 7, RFC 9562): 48 bits of Unix milliseconds, a 12-bit
/// counter within the millisecond, then random bits.
///
/// Ids made here sort in the order they were made (within this process), so the `eventIds` index
/// grows at its end — one dirty page per commit instead of one per event for random UUIDs.
public enum EventID {
    private static let last = Mutex<(millis: UInt64, counter: UInt16)>((0, 0))

    /// A new id, greater than every id this process made before.
    public static func make(now: Date = Date()) -> UUID {
        let wall = UInt64(max(0, now.timeIntervalSince1970 * 1000))
        let (millis, counter) = last.withLock { state -> (UInt64, UInt16) in
            if wall > state.millis {
                state = (wall, 0)
            } else if state.counter < 0x0FFF {
                state.counter += 1
            } else {
                state = (state.millis + 1, 0)  // 4,096 ids in one millisecond: borrow the next one
            }
            return state
        }
        var random = SystemRandomNumberGenerator()
        let tail = random.next() as UInt64
        var bytes = [UInt8](repeating: 0, count: 16)
        for i in 0..<6 { bytes[i] = UInt8(truncatingIfNeeded: millis >> (8 * (5 - i))) }
        bytes[6] = 0x70 | UInt8(counter >> 8)
        bytes[7] = UInt8(truncatingIfNeeded: counter)
        bytes[8] = 0x80 | UInt8(truncatingIfNeeded: tail >> 58)
        for i in 9..<16 { bytes[i] = UInt8(truncatingIfNeeded: tail >> (8 * (15 - i))) }
        return UUID(
            uuid: (
                bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7],
                bytes[8], bytes[9], bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]
            ))
    }
}
