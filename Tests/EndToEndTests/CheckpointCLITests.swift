import CLMDB
import Crypto
import EventLog
import EventLogTesting
import Foundation
import Testing
import _CryptoExtras

/// `muster checkpoint` and `muster verify` on a log whose bytes were changed behind the store's back.
@Suite struct CheckpointCLITests {
    /// A closed log of `events` commits in `work/data`.
    static func makeLog(in work: TemporaryDirectory, events: Int = 8) async throws -> URL {
        let data = work.url.appendingPathComponent("data")
        let log = try EventLog(directory: data, configuration: BackupCLITests.release)
        for i in 1...events { try await log.append(AppendRequest(stream: "s\(i % 2)", events: [.sample(n: i)])) }
        log.close()
        return data
    }

    /// Flips one bit of the body of the event at `position`, writing `data.mdb` through LMDB directly.
    static func flipBodyBit(of position: UInt64, in data: URL) throws {
        var env: OpaquePointer?
        try #require(mdb_env_create(&env) == 0)
        defer { mdb_env_close(env) }
        mdb_env_set_maxdbs(env, 512)
        mdb_env_set_mapsize(env, 16 << 30)
        try #require(mdb_env_open(env, data.path, 0, 0o600) == 0)
        var txn: OpaquePointer?
        try #require(mdb_txn_begin(env, nil, 0, &txn) == 0)
        var dbi = MDB_dbi()
        try #require(mdb_dbi_open(txn, "events", 0, &dbi) == 0)
        var key = withUnsafeBytes(of: position.bigEndian) { Array($0) }
        var value = MDB_val()
        var envelope: [UInt8] = []
        try key.withUnsafeMutableBytes { raw in
            var k = MDB_val(mv_size: 8, mv_data: raw.baseAddress)
            try #require(mdb_get(txn, dbi, &k, &value) == 0)
            envelope = Array(UnsafeRawBufferPointer(start: value.mv_data, count: value.mv_size))
            envelope[envelope.count - 6] ^= 0x01  // inside {"n":…}, before the CRC-32C
            try envelope.withUnsafeMutableBytes { bytes in
                var v = MDB_val(mv_size: bytes.count, mv_data: bytes.baseAddress)
                try #require(mdb_put(txn, dbi, &k, &v, 0) == 0)
            }
        }
        try #require(mdb_txn_commit(txn) == 0)
    }

    @Test func aSignedCheckpointHoldsUntilAnEventIsChanged() async throws {
        let work = try TemporaryDirectory("checkpoint-cli")
        defer { work.remove() }
        let data = try await Self.makeLog(in: work)
        let keyFile = work.url.appendingPathComponent("checkpoint.pem")
        let key = Curve25519.Signing.PrivateKey()
        let secret = String(key.pemRepresentation.split(separator: "\n")[1])
        try Data(key.pemRepresentation.utf8).write(to: keyFile)
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: keyFile.path)

        let refused = try await MusterProcess.run(["checkpoint", "--sign-key", keyFile.path, "--data", data.path])
        #expect(refused.status == 2, "\(refused)")
        #expect(refused.stderr.contains("key file \(keyFile.path) has mode 644"), "\(refused.stderr)")
        #expect(!refused.stderr.contains(secret) && !refused.stdout.contains(secret))

        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: keyFile.path)
        let taken = try await MusterProcess.run(
            ["checkpoint", "--sign-key", keyFile.path, "--json", "--data", data.path])
        #expect(taken.status == 0, "\(taken)")
        #expect(!taken.stdout.contains(secret) && !taken.stderr.contains(secret))
        let checkpoint = try taken.json()
        #expect(checkpoint["position"] as? Int == 8)
        #expect((checkpoint["hash"] as? String)?.count == 64)
        let signature = try #require(checkpoint["signature"] as? [String: Any])
        #expect(signature["algorithm"] as? String == "ed25519")
        #expect(signature["publicKey"] as? String == key.publicKey.pemRepresentation)
        let saved = work.url.appendingPathComponent("checkpoint.json")
        try Data(taken.stdout.utf8).write(to: saved)
        let publicKey = work.url.appendingPathComponent("public.pem")
        try Data(key.publicKey.pemRepresentation.utf8).write(to: publicKey)

        let held = try await MusterProcess.run(
            ["checkpoint", "--check", saved.path, "--trusted-key", publicKey.path, "--data", data.path])
        #expect(held.status == 0, "\(held)")
        #expect(held.stdout.contains("ok: the log passes through position 8"), "\(held.stdout)")
        #expect(held.stdout.contains("signature valid"), "\(held.stdout)")

        try Self.flipBodyBit(of: 3, in: data)
        let broken = try await MusterProcess.run(["checkpoint", "--check", saved.path, "--json", "--data", data.path])
        #expect(broken.status == 1, "\(broken)")
        let problems = try broken.json()["problems"] as? [String] ?? []
        #expect(
            problems.contains { $0.contains("commit of positions 3…3 does not match its link hash") }, "\(problems)")
        #expect(broken.stderr.contains("does not hold for"), "\(broken.stderr)")
    }

    @Test func verifyNamesTheChangedCommitOfATamperedDirectory() async throws {
        let work = try TemporaryDirectory("verify-chain-cli")
        defer { work.remove() }
        let data = try await Self.makeLog(in: work)
        let clean = try await MusterProcess.run(["verify", "--json", "--data", data.path])
        #expect(clean.status == 0, "\(clean)")
        let report = try clean.json()
        #expect(report["chainLinks"] as? Int == 8)
        let head = try await MusterProcess.run(["checkpoint", "--json", "--data", data.path]).json()
        #expect(report["headHash"] as? String == head["hash"] as? String)

        try Self.flipBodyBit(of: 5, in: data)
        let tampered = try await MusterProcess.run(["verify", "--json", "--data", data.path])
        #expect(tampered.status == 1, "\(tampered)")
        let problems = try tampered.json()["problems"] as? [[String: Any]] ?? []
        let chain = problems.filter { $0["area"] as? String == "chain" }.compactMap { $0["message"] as? String }
        #expect(chain.count == 1 && chain[0].contains("commit of positions 5…5"), "\(problems)")

        let human = try await MusterProcess.run(["verify", "--data", data.path])
        #expect(human.lines.contains { $0.hasPrefix("problem: chain: the commit of positions 5…5") }, "\(human.stdout)")
    }
}
