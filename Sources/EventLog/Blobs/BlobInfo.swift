import Foundation

/// What the store knows about one blob, without reading its chunks.
public struct BlobInfo: Sendable, Hashable, Codable {
    /// The SHA-256 of the raw content.
    public var id: BlobID
    /// Bytes of the raw content.
    public var rawSize: UInt64
    /// Bytes the chunks take as stored (zstd frames or raw chunks), without their 5-byte headers.
    public var storedSize: UInt64
    /// Number of chunks of at most 1 MiB raw each.
    public var chunkCount: UInt32
    /// Where the chunks are: the upload id that prefixes their keys in `blobChunks`.
    var uploadId: [UInt8]

    /// Layout: format u8 · raw size u64 LE · stored size u64 LE · chunk count u32 LE · upload id 16.
    func encoded() -> [UInt8] {
        var w = ByteWriter(capacity: 37)
        w.write(UInt8(1))
        w.write(fixed: rawSize)
        w.write(fixed: storedSize)
        w.write(fixed: chunkCount)
        w.append(raw: uploadId)
        return w.bytes
    }

    static func decode(id: BlobID, _ bytes: UnsafeRawBufferPointer) throws -> BlobInfo {
        var r = ByteReader(bytes)
        let format = try r.readByte("blob metadata format")
        guard format == 1 else {
            throw StoreError(
                .corrupt, "blob \(id) has metadata format \(format); this release reads 1", remedy: .verify)
        }
        let raw = try r.read(fixed: UInt64.self, "blob raw size")
        let stored = try r.read(fixed: UInt64.self, "blob stored size")
        let chunks = try r.read(fixed: UInt32.self, "blob chunk count")
        let upload = Array(try r.readRaw(count: 16, "blob upload id"))
        return BlobInfo(id: id, rawSize: raw, storedSize: stored, chunkCount: chunks, uploadId: upload)
    }

    private enum CodingKeys: String, CodingKey { case id, rawSize, storedSize, chunkCount }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        id = try c.decode(BlobID.self, forKey: .id)
        rawSize = try c.decode(UInt64.self, forKey: .rawSize)
        storedSize = try c.decode(UInt64.self, forKey: .storedSize)
        chunkCount = try c.decode(UInt32.self, forKey: .chunkCount)
        uploadId = []
    }

    init(id: BlobID, rawSize: UInt64, storedSize: UInt64, chunkCount: UInt32, uploadId: [UInt8]) {
        self.id = id
        self.rawSize = rawSize
        self.storedSize = storedSize
        self.chunkCount = chunkCount
        self.uploadId = uploadId
    }
}

/// Totals over every blob, as `muster status` shows them.
public struct BlobTotals: Sendable, Hashable, Codable {
    /// Number of distinct blobs.
    public var count: UInt64 = 0
    /// Raw bytes of all blobs.
    public var rawBytes: UInt64 = 0
    /// Bytes as stored (after compression).
    public var storedBytes: UInt64 = 0
}
