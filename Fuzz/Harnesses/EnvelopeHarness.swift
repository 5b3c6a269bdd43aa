@testable import EventLog

extension FuzzTarget {
    /// Stored event values as read from a damaged data file. The first byte picks whether the checksum is
    /// checked (most mutations fail it, so mostly it is not, to reach the fields behind it); the rest is the value.
    static let envelope = FuzzTarget(
        name: "envelope", summary: "EnvelopeCodec.decode/header/chainLink on a stored event value"
    ) { input in
        guard let mode = input.first else { return }
        let value = Array(input.dropFirst())
        let position = UInt64(mode >> 1) + 1
        let verify = mode & 1 == 1 && mode & 0x10 == 0
        value.withUnsafeBytes { bytes in
            // The index readers: a value or a StoreError, never a trap.
            _ = try? EnvelopeCodec.header(position: position, bytes)
            _ = try? EnvelopeCodec.chainLink(position: position, bytes)
            let event: RecordedEvent
            do {
                event = try EnvelopeCodec.decode(position: position, bytes, verify: verify)
            } catch {
                require(error is StoreError, "decode threw \(type(of: error)), not a StoreError")
                return
            }
            require(event.position == position, "decoded position \(event.position), stored under \(position)")
            let previous = try? EnvelopeCodec.chainLink(position: position, bytes).previous
            require(previous != nil, "decode accepted a value whose chain link does not read")
            // What decodes re-encodes to a value that decodes to the same event, checksum included.
            let again = EnvelopeCodec.encode(event, previousInStream: previous ?? 0)
            let decoded = again.withUnsafeBytes { try? EnvelopeCodec.decode(position: position, $0, verify: true) }
            require(decoded == event, "re-encoded event decodes differently")
        }
    }
}
