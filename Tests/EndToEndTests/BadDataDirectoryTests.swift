import EventLog
import EventLogTesting
import Foundation
import Testing

/// A damaged, unwritable or mistaken `--data` ends every verb with one line on stderr naming the directory and
/// what is wrong, exit 1 (2 for a path that is not a data directory at all), and not one byte written there.
@Suite struct BadDataDirectoryTests {
    /// The verbs the defect was seen with; `serve` must exit too, not spin.
    static let verbs: [[String]] = [["events"], ["status"], ["verify"], ["serve", "--port", "0"]]

    @Test(arguments: verbs) func aDataFileOfRandomBytesIsReportedAsDamaged(verb: [String]) async throws {
        let work = try TemporaryDirectory("junk-data")
        defer { work.remove() }
        let data = work.url.appendingPathComponent("data")
        try FileManager.default.createDirectory(at: data, withIntermediateDirectories: false)
        try Data(randomBytes(200_000)).write(to: data.appendingPathComponent("data.mdb"))
        let before = try DirectorySnapshot(data)

        let outcome = try await MusterProcess.run(verb + ["--data", data.path], timeout: 60)

        #expect(outcome.status == 1, "\(outcome)")
        let line = try Self.onlyLine(outcome)
        #expect(line.contains(data.path) && line.contains("damaged") && line.contains("muster restore"), "\(line)")
        #expect(try DirectorySnapshot(data) == before)
    }

    @Test(arguments: verbs) func aTruncatedDataFileIsReportedAsDamaged(verb: [String]) async throws {
        let work = try TemporaryDirectory("truncated-data")
        defer { work.remove() }
        let data = work.url.appendingPathComponent("data")
        try await Self.makeLog(in: data)
        let file = data.appendingPathComponent("data.mdb")
        // Cut within the pages LMDB uses: the file reaches further (the store extends it ahead of them, sparse).
        let environment = try Environment(directory: data, readOnly: true)
        let size = environment.usedSize
        environment.close()
        #expect(truncate(file.path, off_t(size / 2)) == 0)
        let before = try DirectorySnapshot(data)

        let outcome = try await MusterProcess.run(verb + ["--data", data.path], timeout: 60)

        #expect(outcome.status == 1, "\(outcome)")
        let line = try Self.onlyLine(outcome)
        #expect(line.contains(data.path) && line.contains("cut short") && line.contains("muster restore"), "\(line)")
        #expect(try DirectorySnapshot(data) == before)
    }

    /// Tests run as root, whom file modes do not stop: then the binary runs as `nobody` through `setpriv`.
    @Test func aReadOnlyDataDirectoryIsReportedAsNotWritable() async throws {
        let work = try TemporaryDirectory("read-only-data")
        defer {
            chmod(work.url.appendingPathComponent("data").path, 0o700)
            work.remove()
        }
        let data = work.url.appendingPathComponent("data")
        try await Self.makeLog(in: data)
        for name in try FileManager.default.contentsOfDirectory(atPath: data.path) {
            #expect(chmod(data.appendingPathComponent(name).path, 0o444) == 0)
        }
        #expect(chmod(data.path, 0o555) == 0)
        let before = try DirectorySnapshot(data)
        let launcher = geteuid() == 0 ? ["/usr/bin/setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"] : []

        for verb in Self.verbs {
            let outcome = try await MusterProcess.run(verb + ["--data", data.path], launcher: launcher, timeout: 60)
            #expect(outcome.status == 1, "\(verb): \(outcome)")
            let line = try Self.onlyLine(outcome)
            #expect(line.contains(data.path) && line.contains("not writable"), "\(line)")
        }
        #expect(try DirectorySnapshot(data) == before)
    }

    /// LMDB's own open failing (here: its lock file is a directory) once aborted with a double free.
    @Test func aFailingLMDBOpenEndsInOneLine() async throws {
        let work = try TemporaryDirectory("lock-is-directory")
        defer { work.remove() }
        let data = work.url.appendingPathComponent("data")
        try await Self.makeLog(in: data)
        let lock = data.appendingPathComponent("lock.mdb")
        try FileManager.default.removeItem(at: lock)
        try FileManager.default.createDirectory(at: lock, withIntermediateDirectories: false)
        let before = try DirectorySnapshot(data)

        let outcome = try await MusterProcess.run(["events", "--data", data.path], timeout: 60)

        #expect(outcome.status == 1, "\(outcome)")
        let line = try Self.onlyLine(outcome)
        #expect(line.contains(data.path), "\(line)")
        #expect(try DirectorySnapshot(data) == before)
    }

    @Test(arguments: [["events"], ["status"], ["users", "add", "ada"], ["serve", "--port", "0"]])
    func aRegularFileIsNotADataDirectory(verb: [String]) async throws {
        let work = try TemporaryDirectory("file-as-data")
        defer { work.remove() }
        let file = work.url.appendingPathComponent("notes.txt")
        try Data("not a data directory\n".utf8).write(to: file)
        let before = try DirectorySnapshot(work.url)

        let outcome = try await MusterProcess.run(verb + ["--data", file.path], timeout: 60)

        #expect(outcome.status == 2, "\(outcome)")
        let line = try Self.onlyLine(outcome)
        #expect(line.contains(file.path) && line.contains("not a data directory"), "\(line)")
        #expect(try DirectorySnapshot(work.url) == before)
    }

    // MARK: Helpers

    /// A small healthy log, closed.
    static func makeLog(in directory: URL) async throws {
        let log = try EventLog(directory: directory, configuration: BackupCLITests.release)
        for i in 1...30 {
            let padding = String(repeating: "x", count: 3000)
            try await log.append(
                AppendRequest(stream: "s\(i)", events: [NewEvent(type: "Noted", body: .json("{\"p\":\"\(padding)\"}"))])
            )
        }
        log.close()
    }

    /// The one line on stderr; fails the test when there are more or none.
    static func onlyLine(_ outcome: MusterProcess.Outcome) throws -> String {
        let lines = outcome.stderr.split(separator: "\n")
        try #require(lines.count == 1, "stderr should be one line: \(outcome.stderr)")
        return String(lines[0])
    }
}

/// The names, bytes and modification times of the files directly in a directory.
struct DirectorySnapshot: Equatable {
    struct Entry: Equatable {
        var bytes: Data?
        var modified: Date?
    }
    var entries: [String: Entry] = [:]

    init(_ directory: URL) throws {
        let fm = FileManager.default
        for name in try fm.contentsOfDirectory(atPath: directory.path) {
            let url = directory.appendingPathComponent(name)
            let attributes = try fm.attributesOfItem(atPath: url.path)
            let isFile = attributes[.type] as? FileAttributeType == .typeRegular
            entries[name] = Entry(
                bytes: isFile ? try Data(contentsOf: url) : nil, modified: attributes[.modificationDate] as? Date)
        }
    }
}
