import Crypto
import EventLogTesting
import Foundation
import Testing

@testable import EventLog

/// The hash chain over commits: built by the writer, recomputed by `verify`, recorded by checkpoints.
@Suite struct CommitChainTests {
    /// A log of `commits` commits of one event each, in four streams.
    static func populated(_ t: TestLog, commits: Int = 30) async throws -> EventLog {
        let log = try t.open()
        for i in 1...commits {
            try await log.append(AppendRequest(stream: "s\(i % 4)", events: [.sample(n: i)]))
        }
        return log
    }

    /// The documented link hash, computed here independently of `CommitHasher`.
    static func expectedHash(previous: [UInt8], first: UInt64, last: UInt64, envelopes: [[UInt8]]) -> [UInt8] {
        var sha = SHA256()
        sha.update(data: previous)
        sha.update(data: Key.position(first))
        for envelope in envelopes {
            sha.update(data: Key.position(UInt64(envelope.count)))
            sha.update(data: envelope)
        }
        sha.update(data: Key.position(last))
        return Array(sha.finalize())
    }

    static func links(_ log: EventLog) throws -> [CommitChain.Link] {
        try log.core.environment.read { txn in
            var links: [CommitChain.Link] = []
            try txn.scan(try #require(try log.core.tables.commits(in: txn))) { key, value in
                links.append(try #require(CommitChain.decode(key: key, value: value)))
                return true
            }
            return links
        }
    }

    static func envelope(_ log: EventLog, at position: UInt64) throws -> [UInt8] {
        try log.core.environment.read { try #require(try $0.get(log.core.tables.events, Key.position(position))) }
    }

    /// Replaces the body of the event at `position` and stores it with a correct checksum, as a forger would.
    static func forge(_ log: EventLog, at position: UInt64) async throws {
        let events = log.core.tables.events
        try await log.perform { scope in
            let stored = try #require(try scope.txn.get(events, Key.position(position)))
            let (event, previous) = try stored.withUnsafeBytes {
                (
                    try EnvelopeCodec.decode(position: position, $0),
                    try EnvelopeCodec.chainLink(position: position, $0).previous
                )
            }
            var forged = event
            forged.body = EventBody(format: event.body.format, bytes: Array("{\"n\":-1}".utf8))
            try scope.txn.put(events, Key.position(position), EnvelopeCodec.encode(forged, previousInStream: previous))
        }
    }

    @Test func eachCommitAddsOneLinkOverItsEnvelopesChainedToThePrevious() async throws {
        let t = try TestLog()
        defer { t.directory.remove() }
        let log = try t.open()
        defer { log.close() }
        let repeated = NewEvent.sample(n: 1)
        try await log.append(AppendRequest(stream: "a", events: [repeated]))
        try await log.append(AppendRequest(stream: "b", events: [.sample(n: 2), .sample(n: 3)]))
        // Two appends in one transaction are one commit, so one link.
        try await log.perform { scope in
            try scope.append(AppendRequest(stream: "c", events: [.sample(n: 4)]))
            try scope.append(AppendRequest(stream: "d", events: [.sample(n: 5)]))
        }
        // An idempotent repeat and a transaction without events add no link.
        try await log.append(AppendRequest(stream: "a", events: [repeated]))
        try await log.perform { _ in () }

        let links = try Self.links(log)
        #expect(links.map { [$0.first, $0.last] } == [[1, 1], [2, 3], [4, 5]])
        var previous = [UInt8](repeating: 0, count: 32)
        for link in links {
            let envelopes = try (link.first...link.last).map { try Self.envelope(log, at: $0) }
            #expect(
                link.hash
                    == Self.expectedHash(previous: previous, first: link.first, last: link.last, envelopes: envelopes))
            previous = link.hash
        }
        let checkpoint = try log.checkpoint()
        #expect(checkpoint.position == 5 && checkpoint.hash == CommitChain.hex(previous))
        let report = try await log.verify()
        #expect(report.isHealthy, "\(report.problems)")
        #expect(report.chainLinks == 3 && report.headHash == checkpoint.hash)
    }

    @Test func aFlippedByteInAnEnvelopeIsNamedByItsCommit() async throws {
        let t = try TestLog()
        defer { t.directory.remove() }
        let log = try await Self.populated(t)
        defer { log.close() }
        let events = log.core.tables.events
        try await log.perform { scope in
            var value = try #require(try scope.txn.get(events, Key.position(13)))
            value[value.count - 7] ^= 0x20
            try scope.txn.put(events, Key.position(13), value)
        }
        let chain = try await log.verify().problems.filter { $0.area == "chain" }
        #expect(chain.count == 1, "\(chain)")
        #expect(chain.first?.message.contains("commit of positions 13…13 does not match its link hash") == true)
    }

    @Test func aRewrittenEventWithARecomputedChecksumIsCaughtOnlyByTheChain() async throws {
        let t = try TestLog()
        defer { t.directory.remove() }
        let log = try await Self.populated(t)
        defer { log.close() }
        try await Self.forge(log, at: 7)
        let report = try await log.verify()
        #expect(!report.problems.contains { $0.area == "events" }, "the checksum was recomputed: \(report.problems)")
        let chain = report.problems.filter { $0.area == "chain" }
        #expect(chain.map(\.message).contains { $0.contains("commit of positions 7…7 does not match") }, "\(chain)")
        #expect(chain.first?.remedy == .restoreBackup(directory: log.directory.path))
    }

    @Test func aDeletedEventAndARemovedLinkAreNamed() async throws {
        let t = try TestLog()
        defer { t.directory.remove() }
        let log = try await Self.populated(t)
        defer { log.close() }
        let (events, commits) = (log.core.tables.events, try #require(log.core.tables.commits))
        try await log.perform { scope in
            _ = try scope.txn.delete(events, Key.position(20))
            _ = try scope.txn.delete(commits, Key.position(10))
        }
        let messages = try await log.verify().problems.filter { $0.area == "chain" }.map(\.message)
        #expect(messages.contains { $0.contains("positions 20…20 of the commit of positions 20…20 are missing") })
        #expect(messages.contains { $0.contains("jumps from position 9 to a commit of positions 11…11") })
        #expect(messages.count == 4, "20 missing and unmatched; 11 out of place and unmatched: \(messages)")
    }

    @Test func aWholeRecomputedChainPassesVerifyButNotAnEarlierCheckpoint() async throws {
        let t = try TestLog()
        defer { t.directory.remove() }
        let log = try await Self.populated(t)
        defer { log.close() }
        let checkpoint = try log.checkpoint()
        #expect(try await log.check(checkpoint).isValid)
        try await Self.forge(log, at: 5)
        // The forger recomputes every link from the events, so the chain is consistent again.
        let tables = log.core.tables
        try await log.perform { scope in
            let commits = try #require(tables.commits)
            var previous = CommitChain.genesis
            var stored: [CommitChain.Link] = []
            try scope.txn.scan(commits) { key, value in
                stored.append(try #require(CommitChain.decode(key: key, value: value)))
                return true
            }
            for link in stored {
                var hasher = CommitHasher(previous: previous, first: link.first)
                for position in link.first...link.last {
                    try #require(try scope.txn.get(tables.events, Key.position(position))).withUnsafeBytes {
                        hasher.add(envelope: $0)
                    }
                }
                let rewritten = hasher.link(last: link.last)
                try CommitChain.put(rewritten, commits, in: scope.txn)
                previous = rewritten.hash
            }
        }
        #expect(try await log.verify().isHealthy, "the chain alone cannot tell")
        let check = try await log.check(checkpoint)
        #expect(!check.isValid)
        #expect(check.problems.contains { $0.contains("the log was rewritten up to there") }, "\(check.problems)")
        #expect(check.linksChecked == 30)
    }

    @Test(arguments: [CheckpointKey.Algorithm.ed25519, .p256])
    func aSignedCheckpointVerifiesAndATamperedOneDoesNot(_ algorithm: CheckpointKey.Algorithm) async throws {
        let t = try TestLog()
        defer { t.directory.remove() }
        let log = try await Self.populated(t, commits: 5)
        defer { log.close() }
        let (key, other) =
            algorithm == .ed25519
            ? (CheckpointKey(Curve25519.Signing.PrivateKey()), CheckpointKey(Curve25519.Signing.PrivateKey()))
            : (CheckpointKey(P256.Signing.PrivateKey()), CheckpointKey(P256.Signing.PrivateKey()))
        let signed = try log.checkpoint().signed(with: key)
        #expect(signed.signature?.algorithm == algorithm)
        #expect(try signed.signatureIsValid() == true)
        let check = try await log.check(signed, trustedKey: key.publicKeyPEM)
        #expect(check.isValid && check.signatureValid == true, "\(check.problems)")

        var moved = signed
        moved.position = 4
        moved.hash = try #require(Self.links(log).first { $0.last == 4 }).hashHex
        let movedCheck = try await log.check(moved)
        #expect(movedCheck.signatureValid == false && !movedCheck.isValid, "the signature covers the position")

        let untrusted = try await log.check(signed, trustedKey: other.publicKeyPEM)
        #expect(untrusted.problems == ["the checkpoint is signed by another key than the trusted one"])
    }

    @Test func aKeyFileOthersCanReadIsRefusedAndTheKeyIsNeverPrinted() throws {
        let directory = try TemporaryDirectory("key")
        defer { directory.remove() }
        let key = Curve25519.Signing.PrivateKey()
        let file = directory.url.appendingPathComponent("checkpoint.pem")
        try Data(key.pemRepresentation.utf8).write(to: file)
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: file.path)
        let refused = #expect(throws: StoreError.self) { try CheckpointKey.load(from: file) }
        #expect(refused?.message.contains("key file \(file.path) has mode 644") == true, "\(refused?.message ?? "")")

        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: file.path)
        let loaded = try CheckpointKey.load(from: file)
        #expect(loaded.algorithm == .ed25519)
        #expect(loaded.publicKeyPEM == key.publicKey.pemRepresentation)
        let body = key.pemRepresentation.split(separator: "\n")[1]
        #expect(!"\(loaded)".contains(body) && !String(reflecting: loaded).contains(body))

        try Data("-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n".utf8).write(to: file)
        let unreadable = #expect(throws: StoreError.self) { try CheckpointKey.load(from: file) }
        #expect(unreadable?.message.contains("holds no Ed25519 or P-256 private key") == true)
    }

    @Test func aFormatOneLogIsLinkedOnceByTheMigration() async throws {
        let t = try TestLog()
        defer { t.directory.remove() }
        let log = try await Self.populated(t, commits: 6)
        // Made into what the first release wrote: format 1, no commits table.
        let meta = Meta(table: log.core.tables.meta)
        try await log.perform { scope in
            try scope.core.environment.dropTable(try #require(scope.core.tables.commits), in: scope.txn)
            try meta.setInteger(Meta.formatVersion, 1, in: scope.txn)
        }
        log.close()
        let refused = #expect(throws: StoreError.self) { _ = try t.open() }
        #expect(refused?.code == .olderFormat)

        let old = try t.open { $0.allowOlderFormat = true }
        defer { old.close() }
        #expect(old.core.tables.commits == nil)
        let missing = try await old.verify().problems.filter { $0.area == "chain" }
        #expect(missing.count == 1 && missing.first?.remedy == .migrate, "\(missing)")
        let unchained = #expect(throws: StoreError.self) { try old.checkpoint() }
        #expect(unchained?.code == .olderFormat)
        try await old.append(AppendRequest(stream: "late", events: [.sample(n: 7)]))

        #expect(try await old.migrate() == ["adds the commit hash chain: one link over the events up to the head"])
        #expect(try old.storedFormatVersion() == 2)
        // The same open log links its next commit to the migration's link.
        try await old.append(AppendRequest(stream: "later", events: [.sample(n: 8)]))
        #expect(try Self.links(old).map { [$0.first, $0.last] } == [[1, 7], [8, 8]])
        let report = try await old.verify()
        #expect(report.isHealthy && report.chainLinks == 2, "\(report.problems)")
        #expect(try await old.check(old.checkpoint()).isValid)
        #expect(try await old.perform { try MigrationScope(transaction: $0.txn).linkUnchainedEvents() } == nil)
    }

    @Test func aBackupsManifestCarriesTheHeadHashAndRestoreRequiresIt() async throws {
        let t = try TestLog()
        defer { t.directory.remove() }
        let log = try await Self.populated(t, commits: 12)
        let backup = t.directory.url.appendingPathComponent("backup")
        let manifest = try await log.backup(to: backup)
        #expect(manifest.headHash == (try log.checkpoint().hash))
        log.close()

        var forged = manifest
        forged.headHash = String(repeating: "0", count: 64)
        try BackupManifest.encoder.encode(forged).write(to: backup.appendingPathComponent("manifest.json"))
        let target = t.directory.url.appendingPathComponent("restored")
        let error = await #expect(throws: StoreError.self) { try await EventLog.restore(from: backup, into: target) }
        #expect(error?.message.contains("its commit chain ends with hash \(manifest.headHash ?? "")") == true)
        #expect(!FileManager.default.fileExists(atPath: target.path))

        try BackupManifest.encoder.encode(manifest).write(to: backup.appendingPathComponent("manifest.json"))
        #expect(try await EventLog.restore(from: backup, into: target).headHash == manifest.headHash)
    }
}
