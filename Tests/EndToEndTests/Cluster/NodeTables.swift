import Foundation
import Muster
import Testing

@testable import EventLog

/// Every table of a node's data directory — the log's and every projection's, after the asynchronous projections
/// caught up — entry by entry, but the commit chain and `meta` (checkpoints, the replication checkpoint): what two
/// nodes holding the same events must hold alike.
enum NodeTables {
    static func of(_ directory: URL) async throws -> [String: [Transaction.Entry]] {
        var configuration = EventLog.Configuration()
        configuration.projections += MusterDomain.projections
        let log = try EventLog(directory: directory, configuration: configuration)
        defer { log.close() }
        _ = try await log.catchUpAsyncProjections()
        return try log.environment.read { txn in
            var tables: [String: [Transaction.Entry]] = [:]
            for name in try log.environment.tableNames(startingWith: "", in: txn)
            where name != LogTables.names.commits && name != LogTables.names.meta {
                let table = try #require(try log.environment.table(name, in: txn, create: false))
                var entries: [Transaction.Entry] = []
                try txn.scan(table) { key, value in
                    entries.append(Transaction.Entry((key, value)))
                    return true
                }
                tables[name] = entries
            }
            return tables
        }
    }
}
