import Crypto
import EventLog
import Synchronization

/// The messages the `mqttDevices` projection remembers (its `recentMessages` table), indexed in memory by device
/// and content hash, so finding a redelivery reads nothing from the file and recording one writes only at the end
/// of a table keyed by position.
///
/// The index follows the table: before each use it compares the table's newest entry with the one it last saw and
/// reads the table again when they differ (another process or another `MQTTDevices` wrote, a write was rolled
/// back, the projection was rebuilt); after a write of its own it adds what was appended and drops what the
/// projection pruned.
final class RecentMessages: Sendable {
    /// A device and a content hash, as 16 bytes of their SHA-256: a quarter of the memory of the text.
    struct Message: Hashable {
        var high: UInt64
        var low: UInt64

        init(device: [UInt8], contentHash: some Sequence<UInt8>) {
            var hasher = SHA256()
            hasher.update(data: device)
            hasher.update(data: Array(contentHash))
            let digest = hasher.finalize()
            (high, low) = digest.withUnsafeBytes {
                (
                    UInt64(bigEndian: $0.loadUnaligned(fromByteOffset: 0, as: UInt64.self)),
                    UInt64(bigEndian: $0.loadUnaligned(fromByteOffset: 8, as: UInt64.self))
                )
            }
        }
    }

    /// The index as of one transaction.
    struct Index {
        /// The table's newest entry when last read or written; nil before the first use.
        fileprivate var newest: Transaction.Entry?
        /// Message → where and when it was recorded.
        private var byMessage: [Message: (position: UInt64, recordedAt: Int64)] = [:]
        /// The messages in position order, from `start` on (older ones were pruned).
        private var order: [(position: UInt64, message: Message)] = []
        private var start = 0

        /// Where the message was recorded and when (microseconds since 1970), if the projection still remembers it.
        func find(_ message: Message) -> (position: UInt64, recordedAt: Int64)? { byMessage[message] }

        /// Takes in a message just appended (its projections applied), in position order.
        mutating func add(_ message: Message, position: UInt64, recordedAt: Int64) {
            byMessage[message] = (position, recordedAt)
            order.append((position, message))
        }

        /// Forgets what the projection pruned and notes the table's newest entry, after this index's own appends.
        mutating func caughtUp(with state: ProjectionState) throws {
            guard let ends = try state.ends(MQTTDevicesProjection.recentTable) else {
                self = Index()
                return
            }
            let oldest = ends.first.key.withUnsafeBytes { Key.readPosition($0) }
            while start < order.count, order[start].position < oldest {
                let gone = order[start]
                if byMessage[gone.message]?.position == gone.position { byMessage[gone.message] = nil }
                start += 1
            }
            if start > 4096, start * 2 > order.count {
                order.removeFirst(start)
                start = 0
            }
            newest = ends.last
        }

        /// The index of the table as `state` sees it.
        fileprivate init(reading state: ProjectionState) throws {
            try state.scan(MQTTDevicesProjection.recentTable) { key, value in
                let entry = MQTTDevicesProjection.RecentEntry(value)
                add(
                    Message(device: entry.device, contentHash: entry.contentHash), position: Key.readPosition(key),
                    recordedAt: entry.recordedAt)
                return true
            }
            newest = try state.ends(MQTTDevicesProjection.recentTable)?.last
        }

        fileprivate init() {}
    }

    private let index = Mutex(Index())

    /// Runs `body` with the index of the table as `state` sees it: read again when the table's newest entry is not
    /// the one the index last saw. A body that appends must call `caughtUp(with:)` after.
    ///
    /// - Parameter hint: `state` is a read snapshot asking for a hint: when it is older than what the index has seen,
    ///   the index answers as it is (newer), rather than being read back to the snapshot and again by the writer.
    func following<T>(_ state: ProjectionState, hint: Bool = false, _ body: (inout Index) throws -> T) throws -> T {
        try index.withLock { index in
            let newest = try state.ends(MQTTDevicesProjection.recentTable)?.last
            let older = hint && newest.map { Self.position($0) < index.newest.map(Self.position) ?? 0 } ?? false
            if !older, newest != index.newest || newest == nil { index = try Index(reading: state) }
            do {
                return try body(&index)
            } catch {
                index = Index()  // it may hold what the failed write appended: read the table next time
                throw error
            }
        }
    }

    /// The position an entry of the table is keyed by.
    private static func position(_ entry: Transaction.Entry) -> UInt64 {
        entry.key.withUnsafeBytes { Key.readPosition($0) }
    }
}
