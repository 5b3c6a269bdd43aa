import CNATS
import Foundation

/// The settings of a JetStream key-value bucket (a stream named `KV_<bucket>` underneath).
public struct KeyValueConfiguration: Sendable, Hashable {
    /// The bucket's name: letters, digits, `-` and `_`.
    public var bucket: String
    /// How many values of each key it keeps, the latest included (1…64).
    public var history: Int
    /// How long an entry lives after it was written, or nil for ever: an entry not written again within `ttl`
    /// disappears (a lease that was not renewed lapses).
    public var ttl: Duration?
    /// How many servers keep a copy: 1, or 3 to survive one server's loss.
    public var replicas: Int
    /// Where the entries are kept.
    public var storage: StreamStorage

    /// A configuration: one value per key, no TTL, one replica, file storage.
    public init(
        bucket: String, history: Int = 1, ttl: Duration? = nil, replicas: Int = 1, storage: StreamStorage = .file
    ) {
        self.bucket = bucket
        self.history = history
        self.ttl = ttl
        self.replicas = replicas
        self.storage = storage
    }

    /// Throws `invalidArgument` for a value libnats or JetStream would refuse.
    func validate() throws {
        let allowed = CharacterSet.alphanumerics.union(CharacterSet(charactersIn: "-_"))
        guard !bucket.isEmpty, bucket.unicodeScalars.allSatisfy({ $0.isASCII && allowed.contains($0) }) else {
            throw NATSError(
                .invalidArgument,
                "the key-value bucket name \"\(bucket)\" is not valid: expected letters, digits, - and _")
        }
        guard (1...64).contains(history) else {
            throw NATSError(.invalidArgument, "a key-value bucket keeps 1…64 values per key, not \(history)")
        }
        if let ttl, ttl.milliseconds < 1 {
            throw NATSError(.invalidArgument, "the TTL of a key-value bucket must be at least 1 ms, not \(ttl)")
        }
    }

    /// Runs `body` with libnats' form of this configuration, whose strings live until `body` returns.
    func withCConfiguration<T>(_ body: (inout kvConfig) throws -> T) rethrows -> T {
        try bucket.withCString { name in
            var config = kvConfig()
            kvConfig_Init(&config)
            config.Bucket = name
            config.History = UInt8(history)
            // libnats makes the bucket's stream with MaxAge = TTL, in nanoseconds.
            config.TTL = ttl?.nanoseconds ?? 0
            config.Replicas = Int32(replicas)
            config.StorageType = storage == .memory ? js_MemoryStorage : js_FileStorage
            return try body(&config)
        }
    }
}
