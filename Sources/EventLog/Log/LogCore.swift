import Foundation

/// What the writer and readers of one open log share.
struct LogCore: Sendable {
    let environment: Environment
    let tables: LogTables
    let projections: ProjectionRuntime
    let upcasters: UpcasterRegistry
    let clock: @Sendable () -> Int64
    /// Asked before appends and before answering writes, when the log is replicated.
    let gate = WriteGateSlot()

    /// Reads of the log in `txn`, upcasting every event.
    func reading(_ txn: Transaction) -> LogReading { LogReading(tables: tables, txn: txn, upcasters: upcasters) }
}
