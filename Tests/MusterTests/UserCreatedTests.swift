import EventLog
import EventLogTesting
import Foundation
import Muster
import Testing

@Suite struct UserCreatedTests {
    func decode(_ bytes: [UInt8]) throws -> UserCreated {
        try bytes.withUnsafeBytes { buffer in
            var r = ByteReader(buffer)
            let user = try UserCreated(from: &r)
            #expect(r.remaining == 0)
            return user
        }
    }

    @Test func aBodyWrittenBeforeTheNameAndPhoneFieldsDecodesUnchanged() throws {
        // Schema 1 as it was first written: name, email, time zone, admin flag, no password.
        var old = ByteWriter()
        old.write("joe")
        old.write("joe@example.com")
        old.write("Europe/Paris")
        old.write(true)
        old.write(false)
        let user = try decode(old.bytes)
        #expect(
            user
                == UserCreated(
                    name: "joe", email: "joe@example.com", timeZone: "Europe/Paris", isAdmin: true, password: nil))
        #expect(user.firstName == nil && user.lastName == nil && user.phone == nil)
        // Without the new fields a user is written exactly as before.
        var again = ByteWriter()
        user.encode(into: &again)
        #expect(again.bytes == old.bytes)
    }

    static let profiles: [(String?, String?, String?)] = [
        ("Joe", "Bloggs", "+33 1 23 45 67 89"), (nil, "Bloggs", nil), ("Joe", nil, nil), (nil, nil, "112"),
    ]

    @Test(arguments: profiles)
    func theTrailingFieldsRoundTripAfterThePassword(first: String?, last: String?, phone: String?) async throws {
        let user = UserCreated(
            name: "joe", email: nil, timeZone: "UTC", isAdmin: false,
            password: try await PasswordHash.make("pw", rounds: 16),
            firstName: first, lastName: last, phone: phone)
        var w = ByteWriter()
        user.encode(into: &w)
        let decoded = try decode(w.bytes)
        #expect(decoded == user)
        #expect(await decoded.password?.matches("pw") == true)
        var plain = user
        (plain.firstName, plain.lastName, plain.phone) = (nil, nil, nil)
        var prefix = ByteWriter()
        plain.encode(into: &prefix)
        #expect(Array(w.bytes.prefix(prefix.bytes.count)) == prefix.bytes)
    }

    @Test func addUserStoresTheFieldsGivenAndTheCatalogueShowsThem() async throws {
        let t = try TestLog()
        defer { t.directory.remove() }
        let log = try t.open { $0.projections += MusterDomain.projections }
        let directory = Directory(log: log)
        try await directory.addUser("joe", password: nil, firstName: "Joe", lastName: "", phone: "+1 555 0100")
        let joe = try #require(try directory.user("joe"))
        #expect(joe.firstName == "Joe" && joe.lastName == nil && joe.phone == "+1 555 0100")
        let stored = try #require(try log.events(EventQuery(stream: "user/joe")).first)
        let json = String(decoding: try #require(EventCatalogue.json(stored)), as: UTF8.self)
        #expect(
            json
                == #"{"firstName":"Joe","hasPassword":false,"isAdmin":false,"name":"joe","phone":"+1 555 0100","timeZone":"UTC"}"#
        )
    }
}
