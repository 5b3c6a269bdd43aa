import Foundation

/// What the writer and readers of one open log share.
struct LogCore: Sendable {
    let environment: Environment
    let tables: LogTables
    let projections: ProjectionRuntime
    let upcasters: UpcasterRegistry
    let clock: @Sendable () -> Int64
}
