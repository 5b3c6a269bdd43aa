import EventLog
import EventLogTesting
import Foundation
import Testing

@testable import Muster

/// A location request: one silent delivery per phone of the user that a source reaches — never a browser — and
/// nothing recorded when no phone can be asked.
@Suite struct LocationRequestTests {
    /// ann has a browser (web), an iPhone (apns) and an Android phone (fcm); joe has only a browser. Sources for
    /// web and apns exist, none for fcm.
    func fixture() async throws -> (TestLog, EventLog) {
        let t = try TestLog()
        let log = try t.open { $0.projections += MusterDomain.projections }
        let directory = Directory(log: log)
        for name in ["ann", "joe"] { try await directory.addUser(name, password: nil) }
        let devices: [(String, String, PushTargetRegistered.Platform)] = [
            ("ann", "browser", .web), ("ann", "iphone", .apns), ("ann", "pixel", .fcm), ("joe", "browser", .web),
        ]
        for (user, device, platform) in devices {
            try await directory.register(
                PushTargetRegistered(user: user, deviceId: device, deviceName: device, platform: platform, token: "ab"))
        }
        let sources = PushSources(log: log)
        try await sources.configure("web", kind: .webpush, details: [], endpoint: nil, secret: [1])
        try await sources.configure("ios", kind: .apns, details: [], endpoint: nil, secret: [2])
        return (t, log)
    }

    @Test func eachPhoneASourceReachesGetsOneSilentDelivery() async throws {
        let (t, log) = try await fixture()
        defer { t.directory.remove() }
        let (request, devices) = try await LocationRequests(log: log).request(user: "ann", reason: "roll call")
        // The browser cannot be asked; the Android phone has no FCM source.
        #expect(devices == ["iphone"])
        let queued = try Deliveries(log: log).list(messageId: request.requestId)
        #expect(queued.map(\.deviceId) == ["iphone"])
        #expect(queued.first?.kind == .locationRequest)
        #expect(queued.first?.source == "ios")
        #expect(queued.first?.status == .pending)

        let audit = try Audit(log: log).entries(Audit.Filter(user: "ann")).filter { $0.what == .locationRequested }
        #expect(audit.count == 1)
        #expect(audit.first?.messageId == request.requestId)
        #expect(audit.first?.reason == "roll call")
        #expect(audit.first?.detail.contains("roll call") == true, "\(audit.first?.detail ?? "")")
    }

    @Test func aUserWithNoPhoneToAskIsRefusedAndNothingIsRecorded() async throws {
        let (t, log) = try await fixture()
        defer { t.directory.remove() }
        let head = log.head
        let error = await #expect(throws: MusterError.self) {
            try await LocationRequests(log: log).request(user: "joe")
        }
        #expect(error?.code == .invalidArgument)
        #expect(error?.field == "user")
        #expect(error?.message.contains("no phone to ask") == true, "\(error?.message ?? "")")
        let unknown = await #expect(throws: MusterError.self) {
            try await LocationRequests(log: log).request(user: "zed")
        }
        #expect(unknown?.code == .notFound)
        #expect(log.head == head)
    }

    @Test func aSentMessageIsQueuedAsAMessage() async throws {
        let (t, log) = try await fixture()
        defer { t.directory.remove() }
        let sent = try await Notifications(log: log).send(
            to: ["ann"], title: "T", body: "B", source: nil, payload: colourPayload)
        let queued = try Deliveries(log: log).list(messageId: sent.messageIds[0])
        #expect(queued.map(\.deviceId).sorted() == ["browser", "iphone"])
        #expect(queued.allSatisfy { $0.kind == .message })
    }
}
