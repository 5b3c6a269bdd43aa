/// A key's value in a key-value bucket, at its revision.
public struct KeyValueEntry: Sendable, Hashable {
    /// The key.
    public let key: String
    /// The value.
    public let value: [UInt8]
    /// The write that made it: its sequence in the bucket's stream. `update(_:value:lastRevision:)` takes it.
    public let revision: UInt64

    /// An entry (for tests and fakes of the lease).
    public init(key: String, value: [UInt8], revision: UInt64) {
        self.key = key
        self.value = value
        self.revision = revision
    }
}
