import EventLog
import EventLogTesting
import Foundation
import Muster
import Testing

/// A process that has the data directory open (as `muster serve` has) reads a projection that another process
/// rebuilt into fresh tables meanwhile: it opens the new tables' handles and reads them, not the old ones.
@Suite struct RebuildElsewhereTests {
    @Test func aProjectionRebuiltByAnotherProcessIsReadFromItsNewTables() async throws {
        let work = try TemporaryDirectory("rebuild-elsewhere")
        defer { work.remove() }
        let data = ["--data", work.url.path]
        #expect(try await MusterProcess.run(["users", "add", "joe"] + data).status == 0)

        var configuration = EventLog.Configuration()
        configuration.projections += MusterDomain.projections
        let log = try EventLog(directory: work.url, configuration: configuration)
        defer { log.close() }
        let directory = Directory(log: log)
        #expect(try directory.users().map(\.name) == ["joe"])

        let rebuilt = try await MusterProcess.run(["rebuild", "directory"] + data)
        #expect(rebuilt.status == 0, "\(rebuilt)")
        #expect(try await MusterProcess.run(["users", "add", "ann"] + data).status == 0)

        // The directory's tables are a new generation now, made by the other process after this one opened.
        #expect(try directory.users().map(\.name).sorted() == ["ann", "joe"])
        try await directory.addUser("zoe", password: nil)
        #expect(try directory.users().map(\.name).sorted() == ["ann", "joe", "zoe"])
    }
}
