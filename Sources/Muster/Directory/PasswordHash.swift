import Crypto
import EventLog
import Foundation
import _CryptoExtras

/// A salted scrypt hash of a password, with its parameters, so the cost can rise later without
/// invalidating stored hashes.
public struct PasswordHash: Sendable, Hashable {
    public var salt: [UInt8]
    public var hash: [UInt8]
    /// scrypt N (a power of two), r and p.
    public var rounds: UInt32
    public var blockSize: UInt32
    public var parallelism: UInt32

    /// scrypt N of new hashes: 2^14 (about 16 MiB and tens of milliseconds a hash), or what
    /// `MUSTER_PASSWORD_ROUNDS` names (`roundsVariable`). A stored hash keeps its own N, so changing it changes
    /// only hashes made after.
    public static let defaultRounds: UInt32 =
        rounds(named: ProcessInfo.processInfo.environment[roundsVariable]) ?? 1 << 14

    /// The environment variable that sets `defaultRounds`: a power of two from 2^10 to 2^20. Lower costs less
    /// CPU a login and resists guessing less; the test suite sets 2^10, where a debug build's scrypt would
    /// otherwise take most of a small machine.
    public static let roundsVariable = "MUSTER_PASSWORD_ROUNDS"

    /// The N `text` names, or nil when it is not a power of two from 2^10 to 2^20.
    public static func rounds(named text: String?) -> UInt32? {
        guard let text, let n = UInt32(text), n >= 1 << 10, n <= 1 << 20, n & (n - 1) == 0 else { return nil }
        return n
    }

    /// Hashes `password` with a fresh random salt (N = `defaultRounds`, r = 8, p = 1), on the hashing threads.
    public static func make(_ password: String, rounds: UInt32 = defaultRounds) async throws -> PasswordHash {
        var generator = SystemRandomNumberGenerator()
        let salt = (0..<16).map { _ in UInt8.random(in: 0...255, using: &generator) }
        let hash = try await hashing { try derive(password, salt: salt, rounds: rounds, blockSize: 8, parallelism: 1) }
        return PasswordHash(salt: salt, hash: hash, rounds: rounds, blockSize: 8, parallelism: 1)
    }

    /// Whether `password` is the one hashed, compared in constant time, on the hashing threads.
    public func matches(_ password: String) async -> Bool {
        let (salt, rounds, blockSize, parallelism) = (salt, rounds, blockSize, parallelism)
        guard
            let candidate = try? await Self.hashing({
                try Self.derive(password, salt: salt, rounds: rounds, blockSize: blockSize, parallelism: parallelism)
            })
        else { return false }
        guard candidate.count == hash.count else { return false }
        return zip(candidate, hash).reduce(UInt8(0)) { $0 | ($1.0 ^ $1.1) } == 0
    }

    /// A hash of the default cost that no password is expected to match: checking against it costs what a real
    /// check does, so a login for a user without a password takes as long as any other.
    static let decoy = PasswordHash(
        salt: [UInt8](repeating: 0, count: 16), hash: [UInt8](repeating: 0, count: 32), rounds: defaultRounds,
        blockSize: 8, parallelism: 1)

    /// Where scrypt runs: Dispatch's threads, at most about one per core, never a thread of Swift concurrency's
    /// pool, which tens of milliseconds of work would hold from every other task.
    private static let hashingQueue = DispatchQueue(
        label: "muster.password-hashing", qos: .userInitiated, attributes: .concurrent)

    private static func hashing(_ work: @escaping @Sendable () throws -> [UInt8]) async throws -> [UInt8] {
        try await withCheckedThrowingContinuation { continuation in
            hashingQueue.async { continuation.resume(with: Result { try work() }) }
        }
    }

    private static func derive(
        _ password: String, salt: [UInt8], rounds: UInt32, blockSize: UInt32, parallelism: UInt32
    ) throws -> [UInt8] {
        let key = try KDF.Scrypt.deriveKey(
            from: Array(password.utf8), salt: salt, outputByteCount: 32, rounds: Int(rounds),
            blockSize: Int(blockSize), parallelism: Int(parallelism))
        return key.withUnsafeBytes { Array($0) }
    }

    func encode(into w: inout ByteWriter) {
        w.write(bytes: salt)
        w.write(bytes: hash)
        w.write(varint: UInt64(rounds))
        w.write(varint: UInt64(blockSize))
        w.write(varint: UInt64(parallelism))
    }

    init(from r: inout ByteReader) throws {
        salt = try r.readBytes("password salt")
        hash = try r.readBytes("password hash")
        rounds = UInt32(truncatingIfNeeded: try r.readVarint("scrypt rounds"))
        blockSize = UInt32(truncatingIfNeeded: try r.readVarint("scrypt block size"))
        parallelism = UInt32(truncatingIfNeeded: try r.readVarint("scrypt parallelism"))
    }

    init(salt: [UInt8], hash: [UInt8], rounds: UInt32, blockSize: UInt32, parallelism: UInt32) {
        self.salt = salt
        self.hash = hash
        self.rounds = rounds
        self.blockSize = blockSize
        self.parallelism = parallelism
    }
}
