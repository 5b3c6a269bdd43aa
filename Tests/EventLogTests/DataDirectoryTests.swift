import EventLogTesting
import Foundation
import Testing

@testable import EventLog

/// Opening a data directory that is damaged, foreign or unopenable fails with one error and writes nothing;
/// opening a healthy one leaves it readable by its owner only.
@Suite struct DataDirectoryTests {
    /// LMDB's own open failing once closed the handle twice (a double free, or a hang on the lock's garbage).
    @Test func aFailingLMDBOpenClosesTheHandleOnce() async throws {
        let work = try TemporaryDirectory("lmdb-open-fails")
        defer { work.remove() }
        try await Self.makeLog(in: work.url)
        let lock = work.url.appendingPathComponent("lock.mdb")
        try FileManager.default.removeItem(at: lock)
        try FileManager.default.createDirectory(at: lock, withIntermediateDirectories: false)

        for _ in 0..<20 {
            let error = #expect(throws: StoreError.self) { _ = try Environment(directory: work.url) }
            #expect(error?.message.contains(work.url.path) == true, "\(String(describing: error))")
        }
        // Still whole: the failed opens did not touch it.
        try FileManager.default.removeItem(at: lock)
        let log = try EventLog(directory: work.url)
        defer { log.close() }
        #expect(log.head == 3)
    }

    @Test func aDataFileThatIsNotLMDBIsDamaged() throws {
        let work = try TemporaryDirectory("not-lmdb")
        defer { work.remove() }
        try Data(repeating: 0x5A, count: 100_000).write(to: work.url.appendingPathComponent("data.mdb"))
        try Self.expectDamaged(work.url, saying: "not an LMDB data file")
    }

    @Test func anEmptyDataFileIsDamaged() throws {
        let work = try TemporaryDirectory("empty-data")
        defer { work.remove() }
        try Data().write(to: work.url.appendingPathComponent("data.mdb"))
        try Self.expectDamaged(work.url, saying: "empty")
    }

    @Test(arguments: [0.5, 0.01, 0.001]) func aDataFileCutShortIsDamaged(fraction: Double) async throws {
        let work = try TemporaryDirectory("cut-short")
        defer { work.remove() }
        try await Self.makeLog(in: work.url, padding: 20_000)
        let file = work.url.appendingPathComponent("data.mdb")
        // Cut within the pages LMDB uses: the file reaches further (`PageCachePrimer` extends it, sparse).
        let size = try Self.pagesEnd(work.url)
        #expect(truncate(file.path, off_t(Double(size) * fraction)) == 0)
        try FileManager.default.removeItem(at: work.url.appendingPathComponent("lock.mdb"))
        try Self.expectDamaged(work.url, saying: "cut short")
    }

    /// Whole meta pages over damaged tree pages: LMDB notices; the error names the directory and what to do.
    @Test(arguments: [UInt8(0x00), 0xFF]) func damagedTreePagesAreReportedAsDamage(filler: UInt8) async throws {
        let work = try TemporaryDirectory("damaged-pages")
        defer { work.remove() }
        try await Self.makeLog(in: work.url)
        let file = work.url.appendingPathComponent("data.mdb")
        var bytes = try [UInt8](Data(contentsOf: file))
        // The page size LMDB chose (the system's), from the first meta page.
        let pageSize = Int(bytes.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: 40, as: UInt32.self) })
        for i in (2 * pageSize)..<bytes.count { bytes[i] = filler }
        try Data(bytes).write(to: file)

        let error = #expect(throws: StoreError.self) { _ = try EventLog(directory: work.url) }
        #expect(error?.code == .corrupt)
        #expect(
            error?.message.contains("data directory \(work.url.path) is damaged") == true,
            "\(String(describing: error))")
        #expect(error?.remedy == .restoreBackup(directory: work.url.path))
    }

    @Test func anotherProgramsLMDBDatabaseIsNotADataDirectory() throws {
        let work = try TemporaryDirectory("foreign-lmdb")
        defer { work.remove() }
        let environment = try Environment(directory: work.url)
        let txn = try environment.beginWrite()
        _ = try environment.createTable("sessions", in: txn)
        try environment.commit(txn)
        environment.close()

        let error = #expect(throws: StoreError.self) { _ = try EventLog(directory: work.url) }
        #expect(error?.code == .notDataDirectory)
        #expect(error?.message.contains(work.url.path) == true)
        let again = try Environment(directory: work.url)
        defer { again.close() }
        #expect(try again.tableNames() == ["sessions"])
    }

    @Test func anUnreadableFormatVersionIsDamaged() async throws {
        let work = try TemporaryDirectory("bad-format")
        defer { work.remove() }
        try await Self.makeLog(in: work.url)
        let environment = try Environment(directory: work.url)
        let meta = try #require(try environment.existingTable(LogTables.names.meta))
        let txn = try environment.beginWrite()
        try txn.put(meta, Array(Meta.formatVersion.utf8), [1, 2, 3])
        try environment.commit(txn)
        environment.close()

        let error = #expect(throws: StoreError.self) { _ = try EventLog(directory: work.url) }
        #expect(error?.code == .corrupt)
        #expect(error?.message.contains("format version") == true, "\(String(describing: error))")
    }

    @Test func aNewDataDirectoryIsTheOwnersOnlyAndALooseOneIsTightenedOnce() async throws {
        let work = try TemporaryDirectory("modes")
        defer { work.remove() }
        let data = work.url.appendingPathComponent("a/b/data")
        let first = try Environment(directory: data)
        #expect(!first.tightenedPermissions)
        first.close()
        #expect(try Self.mode(data) == 0o700)
        #expect(try Self.mode(data.appendingPathComponent("data.mdb")) == 0o600)
        #expect(try Self.mode(data.appendingPathComponent("lock.mdb")) == 0o600)

        #expect(chmod(data.path, 0o755) == 0)
        #expect(chmod(data.appendingPathComponent("data.mdb").path, 0o644) == 0)
        let readOnly = try Environment(directory: data, readOnly: true)
        #expect(!readOnly.tightenedPermissions)
        readOnly.close()
        #expect(try Self.mode(data) == 0o755)

        let loose = try Environment(directory: data)
        #expect(loose.tightenedPermissions)
        loose.close()
        #expect(try Self.mode(data) == 0o700)
        #expect(try Self.mode(data.appendingPathComponent("data.mdb")) == 0o600)
        let tight = try Environment(directory: data)
        #expect(!tight.tightenedPermissions)
        tight.close()
    }

    /// A backup cut short, with a manifest forged to match, once ended `restore` with SIGBUS.
    @Test func restoreRefusesABackupCutShort() async throws {
        let (source, backup) = try await BackupTests.sourceWithBackup(events: 30)
        defer { source.directory.remove() }
        let dataFile = backup.appendingPathComponent("data.mdb")
        let bytes = try [UInt8](Data(contentsOf: dataFile))
        let cut = Array(bytes.prefix(bytes.count / 2))
        try Data(cut).write(to: dataFile)
        let manifestFile = backup.appendingPathComponent("manifest.json")
        var manifest = try JSONDecoder.iso8601.decode(BackupManifest.self, from: Data(contentsOf: manifestFile))
        manifest.dataFile.size = UInt64(cut.count)
        manifest.dataFile.sha256 = sha256Hex(cut)
        try BackupManifest.encoder.encode(manifest).write(to: manifestFile)

        let target = source.directory.url.appendingPathComponent("target")
        let error = await #expect(throws: StoreError.self) { try await EventLog.restore(from: backup, into: target) }
        #expect(error?.code == .corrupt)
        #expect(error?.message.contains("backup \(backup.path) is damaged") == true, "\(error?.message ?? "")")
        #expect(!FileManager.default.fileExists(atPath: target.path))
    }

    // MARK: Helpers

    static func makeLog(in directory: URL, padding: Int = 10) async throws {
        let log = try EventLog(directory: directory)
        for i in 1...3 {
            let body = EventBody.json("{\"p\":\"\(String(repeating: "x", count: padding))\"}")
            try await log.append(AppendRequest(stream: "s\(i)", events: [NewEvent(type: "Noted", body: body)]))
        }
        log.close()
    }

    /// Where the pages LMDB uses end in the data file of `directory`.
    static func pagesEnd(_ directory: URL) throws -> Int {
        let environment = try Environment(directory: directory, readOnly: true)
        defer { environment.close() }
        return environment.usedSize
    }

    /// Opening fails with `.corrupt` naming the directory, and creates no lock file.
    static func expectDamaged(_ directory: URL, saying phrase: String) throws {
        let before = try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
        let error = #expect(throws: StoreError.self) { _ = try Environment(directory: directory) }
        #expect(error?.code == .corrupt)
        #expect(error?.message.contains(directory.path) == true && error?.message.contains(phrase) == true)
        let readOnly = #expect(throws: StoreError.self) { _ = try Environment(directory: directory, readOnly: true) }
        #expect(readOnly?.code == .corrupt)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted() == before)
    }

    static func mode(_ url: URL) throws -> Int {
        try #require(try FileManager.default.attributesOfItem(atPath: url.path)[.posixPermissions] as? Int) & 0o777
    }
}
