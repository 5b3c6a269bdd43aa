import EventLog
import EventLogTesting
import Foundation
import MusterWire
import Testing

@testable import Muster

/// A profile changed: what is named changes, the rest — the password too — stays, and a change of role holds from the
/// next request on.
@Suite struct UserChangeTests {
    @Test func whatIsNamedChangesAndTheRestStays() async throws {
        let f = try SessionsTests.Fixture()
        defer { f.remove() }
        let directory = Directory(log: f.log)
        try await directory.addUser(
            "joe", password: "joe's password", email: "joe@example.org", firstName: "Joe", phone: "112")
        let session = try await f.sessions.login(username: "joe", password: "joe's password")
        #expect(try f.sessions.authenticate(accessToken: session.accessToken).isAdmin == false)

        let changed = try await directory.changeUser(
            "joe", UserChanges(phone: "", timeZone: "Europe/Paris", isAdmin: true), actor: "ada")

        #expect(changed.timeZone == "Europe/Paris" && changed.isAdmin && changed.phone == nil)
        #expect(changed.email == "joe@example.org" && changed.firstName == "Joe")
        #expect(try directory.user("joe") == changed)
        #expect(try f.sessions.authenticate(accessToken: session.accessToken).isAdmin, "from the next request on")
        #expect(try await directory.passwordMatches("joe's password", user: "joe"))
        let audit = try Audit(log: f.log).entries(Audit.Filter(user: "joe")).map(\.detail)
        #expect(audit.last == "user joe changed by ada (time zone Europe/Paris, administrator)", "\(audit)")
        let events = try f.log.read { try $0.events(EventQuery(type: UserChanged.type)) }
        #expect(
            EventCatalogue.json(try #require(events.first))
                == Data(
                    #"{"email":"joe@example.org","firstName":"Joe","isAdmin":true,"name":"joe","timeZone":"Europe/Paris"}"#
                        .utf8))

        // The same again changes nothing and records nothing.
        let head = f.log.head
        #expect(try await directory.changeUser("joe", UserChanges(timeZone: "Europe/Paris")) == changed)
        #expect(f.log.head == head)
    }

    @Test func aBadZoneOrEmailOrAnUnknownUserChangesNothing() async throws {
        let f = try SessionsTests.Fixture()
        defer { f.remove() }
        let directory = Directory(log: f.log)
        try await directory.addUser("joe", password: nil)
        let head = f.log.head
        for (name, changes, field) in [
            ("joe", UserChanges(timeZone: "Mars/Base"), "timeZone"), ("joe", UserChanges(email: "joe"), "email"),
            ("zed", UserChanges(phone: "1"), "user"),
        ] {
            await #expect {
                try await directory.changeUser(name, changes)
            } throws: { ($0 as? MusterError)?.field == field }
        }
        #expect(f.log.head == head)
        #expect(try directory.user("joe")?.timeZone == "UTC")
    }
}
