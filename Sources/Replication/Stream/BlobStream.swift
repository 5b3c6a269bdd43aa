import EventLog
import Foundation
import NATS

/// The blobs an event names (a document's content): what must reach a replica with the event. Given by the domain;
/// the replication knows no event type.
public typealias BlobReferences = @Sendable (RecordedEvent) -> [BlobID]

/// The JetStream stream that holds one namespace's blobs, which its log's events only name by their SHA-256: stream
/// `MUSTER_BLOBS_` + the namespace's suffix, one subject per part, `muster.blob.SUFFIX.HEX.PART`.
///
/// The primary publishes a blob before the first event that names it, and a replica stores it before it appends that
/// event: an acknowledged upload survives the primary as its event does. A blob goes in parts of at most 512 KiB
/// (under NATS's default limit of 1 MB a message), each beginning with the number of parts (u32, big-endian); each
/// part's message id is `HEX.PART`, so a part published twice is stored once.
public struct BlobStream: Sendable, Hashable {
    /// The namespace whose blobs it holds.
    public let namespace: NamespaceStream
    static let partSize = 512 << 10

    public init(namespace: String) { self.namespace = NamespaceStream(namespace: namespace) }

    /// The stream's name.
    public var name: String { "MUSTER_BLOBS_" + namespace.suffix }

    /// The stream's settings: file storage, `replicas` copies.
    public func configuration(replicas: Int) -> StreamConfiguration {
        StreamConfiguration(
            name: name, subjects: ["muster.blob.\(namespace.suffix).>"], replicas: replicas, storage: .file)
    }

    func subject(_ id: BlobID, part: Int) -> String { "muster.blob.\(namespace.suffix).\(id.hex).\(part)" }

    /// The number of parts a blob of `size` bytes goes in.
    static func parts(of size: Int) -> Int { max(1, (size + partSize - 1) / partSize) }

    /// Whether the stream holds all of blob `id`, of `size` bytes: its last part (a blob's parts are published in
    /// order on one connection, so a publish cut short leaves the last one missing, and the blob is sent again).
    func holds(_ id: BlobID, size: Int, over connection: NATSConnection) async throws -> Bool {
        try await connection.lastMessage(stream: name, subject: subject(id, part: Self.parts(of: size) - 1)) != nil
    }

    /// Publishes `bytes`, the content of blob `id`.
    func publish(_ id: BlobID, _ bytes: [UInt8], over connection: NATSConnection) async throws {
        let parts = Self.parts(of: bytes.count)
        let count = withUnsafeBytes(of: UInt32(parts).bigEndian) { Array($0) }
        let messages = (0..<parts).map { part in
            let start = part * Self.partSize
            return OutgoingMessage(
                subject: subject(id, part: part), data: count + bytes[start..<min(bytes.count, start + Self.partSize)],
                messageID: "\(id.hex).\(part)")
        }
        _ = try await connection.publish(messages)
    }

    /// The content of blob `id`, or nil when the stream does not hold all of it.
    func content(_ id: BlobID, over connection: NATSConnection) async throws -> [UInt8]? {
        let first: StreamMessage?
        do {
            first = try await connection.lastMessage(stream: name, subject: subject(id, part: 0))
        } catch let error as NATSError where error.code == .notFound {
            return nil  // no blob was ever published in this namespace
        }
        guard let first, first.data.count >= 4 else { return nil }
        let parts = first.data.prefix(4).reduce(0) { $0 << 8 | Int($1) }
        var bytes = Array(first.data.dropFirst(4))
        for part in 1..<max(parts, 1) {
            guard let message = try await connection.lastMessage(stream: name, subject: subject(id, part: part)) else {
                return nil
            }
            bytes += message.data.dropFirst(4)
        }
        return bytes
    }
}
