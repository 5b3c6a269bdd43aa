import EventLogTesting
import Foundation
import Synchronization
import Testing

@testable import EventLog

/// A stop signal the appenders poll between appends.
final class StopFlag: Sendable {
    private let value = Atomic(false)
    var isSet: Bool { value.load(ordering: .relaxed) }
    func set() { value.store(true, ordering: .relaxed) }
}

@Suite struct BackupTests {
    /// Appends to its own stream until told to stop; signals once it has appended `warmUp` times.
    static func appender(_ log: EventLog, _ n: Int, stop: StopFlag, warmedUp: AsyncStream<Void>.Continuation)
        async throws -> Int
    {
        var count = 0
        while !stop.isSet {
            try await log.append(AppendRequest(stream: "appender-\(n)", events: [.sample("Loaded", n: count)]))
            count += 1
            if count == 20 { warmedUp.yield() }
        }
        return count
    }

    @Test func backupTakenUnderLoadRestoresToExactlyItsManifest() async throws {
        let t = try TestLog("backup-source")
        defer { t.directory.remove() }
        let log = try t.open()
        for i in 0..<100 { try await log.append(AppendRequest(stream: "seed-\(i % 7)", events: [.sample(n: i)])) }
        let photo = try await log.blobs.put(compressibleBytes(1_500_000)).info
        try await log.catchUpAsyncProjections()

        let stop = StopFlag()
        let (warmedUp, signal) = AsyncStream<Void>.makeStream()
        let appended = try await withThrowingTaskGroup(of: Int.self) { group in
            for n in 0..<8 {
                group.addTask { try await Self.appender(log, n, stop: stop, warmedUp: signal) }
            }
            var started = 0
            for await _ in warmedUp {
                started += 1
                if started == 8 { break }
            }
            let backup = try TemporaryDirectory("backup")
            defer { backup.remove() }
            let manifest = try await log.backup(to: backup.url.appendingPathComponent("b1"))
            stop.set()
            var total = 0
            for try await count in group { total += count }
            try await checkRestore(of: backup.url.appendingPathComponent("b1"), manifest, original: log, blob: photo)
            return total
        }
        #expect(appended >= 8 * 20)
        #expect(log.head == UInt64(100 + appended))
    }

    private func checkRestore(of backup: URL, _ manifest: BackupManifest, original log: EventLog, blob: BlobInfo)
        async throws
    {
        #expect(manifest.head >= 100 + 8 * 20)
        #expect(manifest.eventCount == manifest.head)
        #expect(manifest.musterRelease == MusterRelease.version)
        #expect(manifest.blobs == BlobTotals(count: 1, rawBytes: blob.rawSize, storedBytes: blob.storedSize))
        #expect(manifest.projections.map(\.name) == EventLog.builtInProjections.map(\.name))
        #expect(manifest.projections.first { $0.name == PositionIndex.byType.name }?.checkpoint == manifest.head)
        let size =
            try FileManager.default.attributesOfItem(atPath: backup.appendingPathComponent("data.mdb").path)[.size]
            as? Int
        #expect(UInt64(size ?? -1) == manifest.dataFile.size)
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: backup.path).sorted() == ["data.mdb", "manifest.json"])

        let target = try TemporaryDirectory("restored")
        defer { target.remove() }
        let dataDir = target.url.appendingPathComponent("data")
        let restoredManifest = try await EventLog.restore(from: backup, into: dataDir)
        #expect(restoredManifest.head == manifest.head && restoredManifest.dataFile == manifest.dataFile)
        let restored = try EventLog(directory: dataDir)
        defer { restored.close() }
        #expect(restored.head == manifest.head)
        let report = try await restored.verify()
        #expect(report.isHealthy, "\(report.problems)")
        #expect(report.events == manifest.head)
        let originals = try log.events(EventQuery(limit: Int(manifest.head)))
        #expect(try restored.events(EventQuery()) == originals)
        #expect(try restored.blobs.bytes(blob.id) == compressibleBytes(1_500_000))
    }

    @Test func theSecretStoreTravelsWithTheBackupAndIsCheckedOnRestore() async throws {
        let t = try TestLog()
        defer { t.directory.remove() }
        let log = try t.open()
        let fingerprint = try log.secrets.store(Array("a push signing key".utf8))
        _ = try await log.append(AppendRequest(stream: "s", events: [.sample()]))
        let backup = t.directory.url.appendingPathComponent("backup")
        let manifest = try await log.backup(to: backup)
        log.close()
        #expect(manifest.secrets?.map(\.name) == ["secrets/\(fingerprint)"])
        let copied = backup.appendingPathComponent("secrets/\(fingerprint)").path
        #expect(try FileManager.default.attributesOfItem(atPath: copied)[.posixPermissions] as? Int == 0o600)

        let target = t.directory.url.appendingPathComponent("restored")
        try await EventLog.restore(from: backup, into: target)
        #expect(
            try SecretStore(directory: target.appendingPathComponent("secrets")).secret(fingerprint)
                == Array("a push signing key".utf8))

        // A secret changed in the backup is refused, and nothing is restored.
        try Data("tampered".utf8).write(to: URL(fileURLWithPath: copied))
        let again = t.directory.url.appendingPathComponent("again")
        let error = await #expect(throws: StoreError.self) { try await EventLog.restore(from: backup, into: again) }
        #expect(error?.code == .corrupt)
        #expect(!FileManager.default.fileExists(atPath: again.path))
    }

    @Test func backupRefusesANonEmptyDestination() async throws {
        let t = try TestLog()
        defer { t.directory.remove() }
        let log = try t.open()
        let destination = t.directory.url.appendingPathComponent("occupied")
        try FileManager.default.createDirectory(at: destination, withIntermediateDirectories: true)
        try Data("keep me".utf8).write(to: destination.appendingPathComponent("notes.txt"))
        let error = await #expect(throws: StoreError.self) { try await log.backup(to: destination) }
        #expect(error?.code == .invalidArgument)
        #expect(error?.message.contains("not empty") == true)
        #expect(try FileManager.default.contentsOfDirectory(atPath: destination.path) == ["notes.txt"])
    }

    @Test func restoreRefusesANonEmptyTargetUnlessForced() async throws {
        let (source, backup) = try await Self.sourceWithBackup(events: 30)
        defer { source.directory.remove() }
        let target = source.directory.url.appendingPathComponent("target")
        try FileManager.default.createDirectory(at: target, withIntermediateDirectories: true)
        try Data("old".utf8).write(to: target.appendingPathComponent("old.txt"))
        let error = await #expect(throws: StoreError.self) { try await EventLog.restore(from: backup, into: target) }
        #expect(error?.code == .invalidArgument)
        #expect(error?.message.contains("--force") == true)
        #expect(try FileManager.default.contentsOfDirectory(atPath: target.path) == ["old.txt"])

        try await EventLog.restore(from: backup, into: target, force: true)
        #expect(!FileManager.default.fileExists(atPath: target.appendingPathComponent("old.txt").path))
        let restored = try EventLog(directory: target)
        defer { restored.close() }
        #expect(restored.head == 30)
        // Nothing staged or set aside is left next to the target.
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: source.directory.url.path).filter { $0.hasPrefix(".") }
                == [])
    }

    @Test func restoreRefusesATamperedDataFileAndLeavesTheTargetAlone() async throws {
        let (source, backup) = try await Self.sourceWithBackup(events: 30)
        defer { source.directory.remove() }
        let dataFile = backup.appendingPathComponent("data.mdb")
        var bytes = try [UInt8](Data(contentsOf: dataFile))
        bytes[bytes.count / 2] ^= 0x01
        try Data(bytes).write(to: dataFile)

        let fresh = source.directory.url.appendingPathComponent("fresh")
        let error = await #expect(throws: StoreError.self) { try await EventLog.restore(from: backup, into: fresh) }
        #expect(error?.code == .corrupt)
        #expect(error?.message.contains("SHA-256") == true)
        #expect(!FileManager.default.fileExists(atPath: fresh.path))

        // Forced over an existing data directory: that directory survives intact.
        let existing = try TestLog("existing")
        defer { existing.directory.remove() }
        let other = try existing.open()
        try await other.append(AppendRequest(stream: "mine", events: [.sample(n: 7)]))
        other.close()
        await #expect(throws: StoreError.self) {
            try await EventLog.restore(from: backup, into: existing.directory.url, force: true)
        }
        let reopened = try existing.open()
        defer { reopened.close() }
        #expect(try reopened.events(EventQuery()).map(\.stream) == ["mine"])
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: source.directory.url.path).filter { $0.hasPrefix(".") }
                == [])
    }

    @Test func restoreChecksEveryEventEvenWhenTheManifestWasForged() async throws {
        let (source, backup) = try await Self.sourceWithBackup(events: 30)
        defer { source.directory.remove() }
        let dataFile = backup.appendingPathComponent("data.mdb")
        var bytes = try [UInt8](Data(contentsOf: dataFile))
        let marker = Array("{\"n\":17}".utf8)
        let at = try #require(Self.firstIndex(of: marker, in: bytes))
        bytes[at + 5] = UInt8(ascii: "9")  // {"n":19}: still valid JSON, but not what was appended
        try Data(bytes).write(to: dataFile)
        // Someone "fixes" the manifest so size and hash match the damaged file.
        var manifest = try JSONDecoder.iso8601.decode(
            BackupManifest.self, from: Data(contentsOf: backup.appendingPathComponent("manifest.json")))
        manifest.dataFile.sha256 = sha256Hex(bytes)
        try BackupManifest.encoder.encode(manifest).write(to: backup.appendingPathComponent("manifest.json"))

        let target = source.directory.url.appendingPathComponent("target")
        let error = await #expect(throws: StoreError.self) { try await EventLog.restore(from: backup, into: target) }
        #expect(error?.code == .corrupt)
        #expect(error?.message.contains("event at position 17 fails its checksum") == true, "\(error?.message ?? "")")
        #expect(!FileManager.default.fileExists(atPath: target.path))
    }

    /// The backup checks the chain in two halves at once (split at the commit holding the middle position): an event
    /// changed with a correct checksum, as a forger would, is found on either side, and nothing is left behind.
    @Test(arguments: [3, 14, 15, 16, 29])
    func aBackupOfALogWhoseHistoryWasRewrittenIsRefused(forged position: UInt64) async throws {
        let source = try TestLog("forged")
        defer { source.directory.remove() }
        let log = try source.open()
        defer { log.close() }
        for i in 1...30 { try await log.append(AppendRequest(stream: "s\(i % 3)", events: [.sample(n: i)])) }
        let intact = source.directory.url.appendingPathComponent("intact")
        #expect(try await log.backup(to: intact).headHash == (try log.checkpoint().hash))
        try await CommitChainTests.forge(log, at: position)
        let backup = source.directory.url.appendingPathComponent("backup")
        let error = await #expect(throws: StoreError.self) { try await log.backup(to: backup) }
        #expect(error?.code == .corrupt)
        #expect(
            error?.message.contains("the commit of positions \(position)…\(position) does not match its link hash")
                == true,
            "\(error?.message ?? "")")
        #expect(!FileManager.default.fileExists(atPath: backup.path))
    }

    /// A closed log with `events` events and a backup of it in `<dir>/backup`.
    static func sourceWithBackup(events: Int) async throws -> (TestLog, URL) {
        let source = try TestLog("restore")
        let log = try source.open()
        for i in 1...events { try await log.append(AppendRequest(stream: "s\(i % 3)", events: [.sample(n: i)])) }
        let backup = source.directory.url.appendingPathComponent("backup")
        try await log.backup(to: backup)
        log.close()
        return (source, backup)
    }

    static func firstIndex(of needle: [UInt8], in haystack: [UInt8]) -> Int? {
        guard haystack.count >= needle.count else { return nil }
        return (0...(haystack.count - needle.count)).first { haystack[$0..<($0 + needle.count)].elementsEqual(needle) }
    }
}

extension JSONDecoder {
    static var iso8601: JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return decoder
    }
}
