import EventLog
import EventLogTesting
import Foundation
import Testing

@testable import Muster

/// The outbox: one delivery per recipient's device that a push source of the namespace reaches, and every
/// attempt's outcome as an event.
@Suite struct OutboxTests {
    struct Fixture {
        let t: TestLog
        let log: EventLog
        let deliveries: Deliveries
    }

    /// Users ann (a web and an APNs device) and joe (no device); one Web Push source `web`.
    func fixture() async throws -> Fixture {
        let t = try TestLog()
        let log = try t.open { $0.projections += MusterDomain.projections }
        let directory = Directory(log: log)
        for name in ["ann", "joe"] { try await directory.addUser(name, password: nil) }
        try await directory.register(
            PushTargetRegistered(user: "ann", deviceId: "browser", deviceName: "Firefox", platform: .web, token: "sub"))
        try await directory.register(
            PushTargetRegistered(user: "ann", deviceId: "phone", deviceName: "iPhone", platform: .apns, token: "ab12"))
        try await PushSources(log: log).configure(
            "web", kind: .webpush, details: [.init("subject", "mailto:ops@example.org")], endpoint: nil,
            secret: Array("vapid private key".utf8))
        return Fixture(t: t, log: log, deliveries: Deliveries(log: log))
    }

    func send(_ f: Fixture, to users: [String], source: String? = nil) async throws -> [UUID] {
        try await Notifications(log: f.log).send(
            to: users, title: "Shift", body: "Can you come?", source: source, payload: colourPayload
        ).messageIds
    }

    @Test func aSendQueuesOneDeliveryPerDeviceASourceReaches() async throws {
        let f = try await fixture()
        defer { f.t.directory.remove() }
        let ids = try await send(f, to: ["ann", "joe"])
        let queued = try f.deliveries.list()
        // ann's APNs phone has no APNs source; joe has no device.
        #expect(queued.map(\.deviceId) == ["browser"])
        #expect(queued.first?.messageId == ids[0])
        #expect(queued.first?.status == .pending)
        #expect(queued.first?.source == "web")
        #expect(try f.deliveries.due(at: f.t.clock.now, limit: 10).count == 1)
        #expect(try f.deliveries.due(at: f.t.clock.now - 1, limit: 10).isEmpty)
    }

    @Test func theSourceTheSenderNamesIsChosenWhenItReachesTheDevice() async throws {
        let f = try await fixture()
        defer { f.t.directory.remove() }
        try await PushSources(log: f.log).configure(
            "another", kind: .webpush, details: [], endpoint: nil, secret: Array("second key".utf8))
        _ = try await send(f, to: ["ann"], source: "web")
        _ = try await send(f, to: ["ann"], source: "nonexistent")
        #expect(try f.deliveries.list().map(\.source).sorted() == ["another", "web"])
    }

    @Test func aRetryMovesTheDueTimeAndDeliveredEndsIt() async throws {
        let f = try await fixture()
        defer { f.t.directory.remove() }
        _ = try await send(f, to: ["ann"])
        let first = try #require(try f.deliveries.list().first)
        let later = f.t.clock.now + 5_000_000
        try await f.deliveries.failed(first, attempt: 1, status: 429, reason: "slow down", nextAttemptAt: later)
        #expect(try f.deliveries.due(at: f.t.clock.now, limit: 10).isEmpty)
        #expect(try f.deliveries.nextDue() == later)
        let retried = try #require(try f.deliveries.due(at: later, limit: 10).first)
        #expect(retried.attempts == 1 && retried.lastStatus == 429 && retried.lastReason == "slow down")
        try await f.deliveries.delivered(retried, attempt: 2, providerId: "/receipts/1", carried: .direct)
        let done = try #require(try f.deliveries.list().first)
        #expect(done.status == .delivered && done.attempts == 2 && done.providerId == "/receipts/1")
        #expect(try f.deliveries.nextDue() == nil)
        #expect(try f.deliveries.pendingCount() == 0)
    }

    @Test func anOutcomeIsRecordedOncePerAttempt() async throws {
        let f = try await fixture()
        defer { f.t.directory.remove() }
        _ = try await send(f, to: ["ann"])
        let first = try #require(try f.deliveries.list().first)
        let head = f.log.head
        try await f.deliveries.delivered(first, attempt: 1, providerId: "a", carried: .direct)
        // A second sender (or the same one after a crash) answering the same attempt records nothing.
        try await f.deliveries.delivered(first, attempt: 1, providerId: "b", carried: .direct)
        #expect(f.log.head == head + 1)
        #expect(try f.deliveries.list().first?.providerId == "a")
    }

    @Test func anUnregisteredDeviceIsPrunedWithTheProvidersReason() async throws {
        let f = try await fixture()
        defer { f.t.directory.remove() }
        _ = try await send(f, to: ["ann"])
        let first = try #require(try f.deliveries.list().first)
        try await f.deliveries.unregistered(first, attempt: 1, status: 410, reason: "Gone")
        #expect(try f.deliveries.list().first?.status == .failed)
        #expect(try f.deliveries.token(for: first) == nil)
        #expect(try Directory(log: f.log).devices(user: "ann").map(\.deviceId) == ["phone"])
        let pruned = try f.log.read { reader in
            var found: PushTargetUnregistered?
            try reader.events(EventQuery(type: PushTargetUnregistered.type)) {
                found = try PushTargetUnregistered.decode($0)
                return true
            }
            return found
        }
        #expect(pruned?.reason == "web 410 Gone")
        // Nothing more goes to it.
        _ = try await send(f, to: ["ann"])
        #expect(try f.deliveries.list(status: .pending).isEmpty)
    }

    @Test func anExpiredDeliveryIsNoLongerDue() async throws {
        let f = try await fixture()
        defer { f.t.directory.remove() }
        _ = try await send(f, to: ["ann"])
        let first = try #require(try f.deliveries.list().first)
        #expect(first.expiresAt == first.sentAt + Delivery.timeToLive)
        try await f.deliveries.expired(first, attempts: 0)
        #expect(try f.deliveries.list().first?.status == .expired)
        #expect(try f.deliveries.due(at: first.expiresAt, limit: 10).isEmpty)
    }

    @Test func theOutboxIsRebuiltFromTheLogAsItWas() async throws {
        let f = try await fixture()
        defer { f.t.directory.remove() }
        _ = try await send(f, to: ["ann"])
        let first = try #require(try f.deliveries.list().first)
        try await f.deliveries.failed(
            first, attempt: 1, status: 500, reason: "oops", nextAttemptAt: f.t.clock.now + 1_000_000)
        let before = try f.deliveries.list()
        try await f.log.rebuild([OutboxProjection.name])
        #expect(try f.deliveries.list() == before)
    }
}

/// Push sources keep their secret in the data directory's secret store, never in the log.
@Suite struct PushSourceSecretTests {
    @Test func theLogHoldsTheFingerprintAndTheSecretFileIsTheOwnersAlone() async throws {
        let t = try TestLog()
        defer { t.directory.remove() }
        let log = try t.open { $0.projections += MusterDomain.projections }
        let secret = Array("-----BEGIN PRIVATE KEY-----secret-----END PRIVATE KEY-----".utf8)
        let source = try await PushSources(log: log).configure(
            "ios", kind: .apns, details: [.init("keyId", "ABCDEFGHIJ")], endpoint: nil, secret: secret)
        #expect(source.fingerprint == SecretStore.fingerprint(of: secret))
        let bodies = try log.read { reader in
            var all: [[UInt8]] = []
            try reader.events(EventQuery()) {
                all.append($0.body.bytes)
                return true
            }
            return all
        }
        #expect(!bodies.contains { $0.windowsContain(Array("secret".utf8)) })
        let file = log.secrets.directory.appendingPathComponent(source.fingerprint).path
        let mode = try FileManager.default.attributesOfItem(atPath: file)[.posixPermissions] as? Int
        #expect(mode == 0o600)
        #expect(try PushSources(log: log).secret(of: source) == secret)
    }

    @Test func reconfiguringOrRemovingASourceErasesItsOldSecret() async throws {
        let t = try TestLog()
        defer { t.directory.remove() }
        let log = try t.open { $0.projections += MusterDomain.projections }
        let sources = PushSources(log: log)
        let first = try await sources.configure("w", kind: .webpush, details: [], endpoint: nil, secret: [1, 2, 3])
        let second = try await sources.configure("w", kind: .webpush, details: [], endpoint: nil, secret: [4, 5, 6])
        #expect(try log.secrets.fingerprints() == [second.fingerprint])
        #expect(try log.secrets.secret(first.fingerprint) == nil)
        try await sources.remove("w")
        #expect(try log.secrets.fingerprints().isEmpty)
        #expect(try sources.list().isEmpty)
        await #expect(throws: MusterError.self) { try await sources.remove("w") }
    }
}

extension Array where Element == UInt8 {
    /// Whether `needle` occurs in these bytes.
    func windowsContain(_ needle: [UInt8]) -> Bool {
        guard needle.count <= count else { return false }
        return (0...(count - needle.count)).contains { Array(self[$0..<($0 + needle.count)]) == needle }
    }
}
