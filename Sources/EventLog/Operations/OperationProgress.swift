import Foundation

/// Progress of a long operation (backup, restore, verify), reported as it goes.
public struct OperationProgress: Sendable, Hashable {
    /// What is being done now, e.g. `copy`, `checksum`, `events`, `projection byType`.
    public var phase: String
    /// Units done in this phase.
    public var done: UInt64
    /// Units in this phase (0 when unknown).
    public var total: UInt64
    /// What is counted: `events`, `bytes`, `chunks`.
    public var unit: String
}

/// Runs blocking work (LMDB copies, full scans, file hashing) on a thread of its own, so it never
/// occupies one of the few threads of Swift's cooperative pool for minutes.
enum BlockingWork {
    static func run<T: Sendable>(_ name: String, _ work: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            let thread = Thread {
                continuation.resume(with: Result { try work() })
            }
            thread.name = "muster-\(name)"
            thread.start()
        }
    }
}
