/// One chunk as stored in `blobChunks`: flag byte (0 raw, 1 zstd) · CRC-32C of the raw bytes (u32 LE) ·
/// the raw bytes or one zstd frame.
struct StoredChunk: Sendable {
    static let headerSize = 5

    var isCompressed: Bool
    /// CRC-32C of the raw (uncompressed) bytes, so corruption is caught whichever way it is stored.
    var crc: UInt32
    var payload: [UInt8]

    /// Bytes the value takes in the table.
    var valueSize: Int { Self.headerSize + payload.count }

    /// Writes the value into space reserved in the table (no intermediate copy of up to 1 MiB).
    func write(into buffer: UnsafeMutableRawBufferPointer) {
        buffer[0] = isCompressed ? 1 : 0
        buffer.storeBytes(of: crc.littleEndian, toByteOffset: 1, as: UInt32.self)
        guard !payload.isEmpty else { return }
        payload.withUnsafeBytes { source in
            UnsafeMutableRawBufferPointer(rebasing: buffer[Self.headerSize...]).copyMemory(from: source)
        }
    }

    /// The flag and checksum of a stored value.
    struct Header {
        var isCompressed: Bool
        var crc: UInt32

        init(_ value: UnsafeRawBufferPointer, what: @autoclosure () -> String) throws {
            guard value.count >= StoredChunk.headerSize, value[0] <= 1 else {
                throw StoreError(
                    .corrupt,
                    "\(what()) has a damaged header (\(value.count) bytes, flag \(value.first ?? 0)); the blob cannot be read — restore it from a backup"
                )
            }
            isCompressed = value[0] == 1
            crc = UInt32(littleEndian: value.loadUnaligned(fromByteOffset: 1, as: UInt32.self))
        }
    }
}
