import EventLog
import EventLogTesting
import Foundation
import Testing

@testable import Muster

/// A user's open sessions, listed, and one ended from elsewhere: the rest go on.
@Suite struct SessionEndTests {
    @Test func aLostPhonesSessionEndsAndTheOthersGoOn() async throws {
        let f = try SessionsTests.Fixture()
        defer { f.remove() }
        try await f.addUser("joe", password: "joe's password")
        try await f.addUser("ann", password: "ann's password")
        let phone = try await f.sessions.login(username: "joe", password: "joe's password", deviceId: "phone")
        let laptop = try await f.sessions.login(username: "joe", password: "joe's password", deviceId: "laptop")
        _ = try await f.sessions.login(username: "ann", password: "ann's password")
        let open = try f.sessions.open(user: "joe")
        #expect(Set(open.compactMap(\.deviceId)) == ["phone", "laptop"])
        let lost = try #require(open.first { $0.deviceId == "phone" }).sessionId

        // Not ann's to end, nor another namespace's.
        let head = f.log.head
        for (user, namespace) in [("ann", Names.defaultNamespace), (nil, "acme")] {
            await #expect {
                try await f.sessions.end(lost, of: user, namespace: namespace)
            } throws: { ($0 as? MusterError)?.code == .notFound }
        }
        #expect(f.log.head == head)

        try await f.sessions.end(lost, of: "joe", actor: "joe")

        #expect(throws: AuthenticationError.self) { try f.sessions.authenticate(accessToken: phone.accessToken) }
        await #expect(throws: AuthenticationError.self) {
            try await f.sessions.refresh(refreshToken: phone.refreshToken)
        }
        #expect(try f.sessions.authenticate(accessToken: laptop.accessToken).username == "joe")
        #expect(try f.sessions.open(user: "joe").map(\.deviceId) == ["laptop"])
        await #expect {
            try await f.sessions.end(lost)
        } throws: { ($0 as? MusterError)?.code == .notFound }
        let audit = try Audit(log: f.log).entries(Audit.Filter(user: "joe")).map(\.detail)
        #expect(audit.last?.hasSuffix("of joe from device phone ended by joe") == true, "\(audit)")
    }
}
