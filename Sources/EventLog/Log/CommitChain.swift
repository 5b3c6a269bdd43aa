import Crypto

/// The hash chain over the log's commits that makes a rewritten history evident.
///
/// One write transaction that appends events is one link. Its hash is
/// SHA-256(previous link's hash · first position u64 BE · (envelope length u64 BE · envelope bytes) for each
/// event of the commit, in position order · last position u64 BE); the first link's previous hash is 32 zero
/// bytes. The writer feeds each envelope to the hash right after encoding it, while the bytes are hot, so the
/// chain costs one SHA-256 pass over bytes already in hand plus one cursor read and one put per commit; the
/// last position closes the hash because it is known only when the transaction ends. Envelopes are
/// length-prefixed so no two different commits hash the same bytes.
///
/// Table `commits`: last position of the commit (u64 BE) → first position (u64 BE) · hash (32 bytes). Keyed by
/// the last position, so the head link is one cursor step and a checkpoint's link one lookup. Commits that
/// append no events (projection work, idempotent repeats) add no link. The chain covers the events; the
/// projections are derived from them and checked by rebuilding.
///
/// Anyone able to write the data file can recompute the whole chain after changing an event; what the chain
/// proves is that the log still passes through a head hash recorded elsewhere earlier (a checkpoint, a backup
/// manifest), as a transparency log's signed tree heads do.
public enum CommitChain {
    /// Bytes in a link hash.
    public static let hashSize = 32
    /// The previous hash of the first link.
    static let genesis = [UInt8](repeating: 0, count: hashSize)

    /// One link: the commit's positions and its hash.
    public struct Link: Sendable, Hashable {
        /// The commit's first position.
        public var first: UInt64
        /// The commit's last position (the key of its row).
        public var last: UInt64
        /// The link hash.
        public var hash: [UInt8]

        /// The hash as 64 lowercase hex digits.
        public var hashHex: String { CommitChain.hex(hash) }
    }

    static func encode(_ link: Link) -> (key: [UInt8], value: [UInt8]) {
        (Key.position(link.last), Key.position(link.first) + link.hash)
    }

    /// The link stored under `key`, or nil when the row is not a link's shape.
    static func decode(key: UnsafeRawBufferPointer, value: UnsafeRawBufferPointer) -> Link? {
        guard key.count == 8, value.count == 8 + hashSize else { return nil }
        let first = Key.readPosition(value)
        let last = Key.readPosition(key)
        guard first >= 1, first <= last else { return nil }
        return Link(first: first, last: last, hash: Array(value[8...]))
    }

    /// The last link, or nil when the chain is empty (or its last row is damaged).
    static func head(_ table: Table, in txn: Transaction) throws -> Link? {
        let cursor = try Cursor(txn, table)
        defer { cursor.close() }
        guard let (key, value) = try cursor.last() else { return nil }
        return decode(key: key, value: value)
    }

    /// The link of the commit that ended at `position`, or nil when no commit ended there.
    static func link(endingAt position: UInt64, _ table: Table, in txn: Transaction) throws -> Link? {
        try Key.position(position).withUnsafeBytes { key in
            try txn.get(table, key).flatMap { decode(key: key, value: $0) }
        }
    }

    static func put(_ link: Link, _ table: Table, in txn: Transaction) throws {
        // Not LMDB's append mode: a damaged chain with a link past the head must not stop every write.
        let (key, value) = encode(link)
        try txn.put(table, key, value)
    }

    /// Lowercase hex digits of `bytes`.
    static func hex(_ bytes: some Sequence<UInt8>) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var text: [UInt8] = []
        for byte in bytes {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0x0f)])
        }
        return String(decoding: text, as: UTF8.self)
    }

    /// The bytes of `text` read as hex digits, or nil when it is not an even number of them.
    static func bytes(hex text: String) -> [UInt8]? {
        let utf8 = Array(text.utf8)
        guard utf8.count % 2 == 0 else { return nil }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(utf8.count / 2)
        for index in stride(from: 0, to: utf8.count, by: 2) {
            guard let high = nibble(utf8[index]), let low = nibble(utf8[index + 1]) else { return nil }
            bytes.append(high << 4 | low)
        }
        return bytes
    }

    private static func nibble(_ digit: UInt8) -> UInt8? {
        switch digit {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): digit - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): digit - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): digit - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}

/// The hash of one link being built, envelope by envelope (see `CommitChain`).
struct CommitHasher {
    private var sha = SHA256()
    /// The commit's first position.
    let first: UInt64

    init(previous: [UInt8], first: UInt64) {
        self.first = first
        previous.withUnsafeBytes { sha.update(bufferPointer: $0) }
        add(first)
    }

    /// Adds the next event's envelope, as stored.
    mutating func add(envelope: UnsafeRawBufferPointer) {
        add(UInt64(envelope.count))
        sha.update(bufferPointer: envelope)
    }

    /// The link of the commit ending at `last`.
    func link(last: UInt64) -> CommitChain.Link {
        var sha = self.sha
        withUnsafeBytes(of: last.bigEndian) { sha.update(bufferPointer: $0) }
        return CommitChain.Link(first: first, last: last, hash: Array(sha.finalize()))
    }

    private mutating func add(_ number: UInt64) {
        withUnsafeBytes(of: number.bigEndian) { sha.update(bufferPointer: $0) }
    }
}
