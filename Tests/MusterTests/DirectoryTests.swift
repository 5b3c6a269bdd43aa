import EventLog
import EventLogTesting
import Foundation
import Muster
import Testing

@Suite struct DirectoryTests {
    func open(_ t: TestLog) throws -> (EventLog, Directory) {
        let log = try t.open { $0.projections += MusterDomain.projections }
        return (log, Directory(log: log))
    }

    @Test func aUserIsCreatedWithAScryptPasswordThatOnlyItsPasswordMatches() async throws {
        let t = try TestLog()
        defer { t.directory.remove() }
        let (log, directory) = try open(t)
        try await directory.addUser("joe", password: "s3cret-joe", email: "joe@example.com", timeZone: "Europe/Paris")
        let joe = try #require(try directory.user("joe"))
        #expect(joe.timeZone == "Europe/Paris")
        #expect(joe.email == "joe@example.com")
        #expect(await joe.password?.matches("s3cret-joe") == true)
        #expect(await joe.password?.matches("s3cret-joe ") == false)
        #expect(try directory.users().map(\.name) == ["joe"])
        #expect(try directory.users(namespace: "other").isEmpty)
        let stored = try #require(try log.events(EventQuery(stream: "user/joe")).first)
        #expect(stored.type == "UserCreated")
        let json = String(decoding: try #require(EventCatalogue.json(stored)), as: UTF8.self)
        #expect(
            json
                == #"{"email":"joe@example.com","hasPassword":true,"isAdmin":false,"name":"joe","timeZone":"Europe/Paris"}"#
        )
    }

    @Test func aTakenNameOrABadTimeZoneIsRefusedAndWritesNothing() async throws {
        let t = try TestLog()
        defer { t.directory.remove() }
        let (log, directory) = try open(t)
        try await directory.addUser("joe", password: nil)
        let taken = await #expect(throws: MusterError.self) { try await directory.addUser("joe", password: nil) }
        #expect(taken?.code == .conflict)
        #expect(taken?.message.contains("already exists in namespace default") == true)
        let zone = await #expect(throws: MusterError.self) {
            try await directory.addUser("ann", password: nil, timeZone: "Mars/Olympus")
        }
        #expect(zone?.code == .invalidArgument)
        #expect(zone?.message.contains("Mars/Olympus") == true)
        #expect(log.head == 1)
        try await directory.addUser("joe", password: nil, namespace: "acme")  // another namespace: fine
        #expect(log.head == 2)
    }

    @Test func concurrentCreationsOfOneNameLetExactlyOneThrough() async throws {
        let t = try TestLog()
        defer { t.directory.remove() }
        let (log, directory) = try open(t)
        let outcomes = await withTaskGroup(of: Bool.self) { group in
            for _ in 0..<20 {
                group.addTask { (try? await directory.addUser("sam", password: nil)) != nil }
            }
            return await group.reduce(into: [Bool]()) { $0.append($1) }
        }
        #expect(outcomes.filter { $0 }.count == 1)
        #expect(log.head == 1)
    }

    @Test func groupsNeedExistingMembersAndDropDuplicates() async throws {
        let t = try TestLog()
        defer { t.directory.remove() }
        let (log, directory) = try open(t)
        try await directory.addUser("a", password: nil)
        try await directory.addUser("b", password: nil)
        let unknown = await #expect(throws: MusterError.self) {
            try await directory.defineGroup("ops", members: ["a", "zed", "b"])
        }
        #expect(unknown?.code == .invalidArgument)
        #expect(unknown?.message.contains("no user named zed") == true)
        #expect(log.head == 2)
        try await directory.defineGroup("ops", members: ["b", "a", "b"])
        #expect(try directory.groups().map(\.members) == [["b", "a"]])
        try await directory.defineGroup("ops", members: ["a"])
        #expect(try directory.groups().map(\.members) == [["a"]])
    }

    @Test func devicesRegisterUpdateAndUnregister() async throws {
        let t = try TestLog()
        defer { t.directory.remove() }
        let (log, directory) = try open(t)
        try await directory.addUser("joe", password: nil)
        let phone = PushTargetRegistered(
            user: "joe", deviceId: "d1", deviceName: "Phone", platform: .apns, token: "ab12")
        try await directory.register(phone)
        try await directory.register(
            PushTargetRegistered(user: "joe", deviceId: "d2", deviceName: "Browser", platform: .web, token: nil))
        var renamed = phone
        renamed.deviceName = "Work phone"
        try await directory.register(renamed)
        #expect(try directory.devices(user: "joe").map(\.deviceName) == ["Work phone", "Browser"])
        #expect(try await directory.unregister(user: "joe", deviceId: "d2"))
        #expect(try await directory.unregister(user: "joe", deviceId: "d2") == false)
        #expect(try directory.devices().map(\.deviceId) == ["d1"])
        let stranger = await #expect(throws: MusterError.self) {
            try await directory.register(
                PushTargetRegistered(user: "nobody", deviceId: "x", deviceName: "X", platform: .fcm, token: "t"))
        }
        #expect(stranger?.code == .notFound)
        #expect(log.head == 5)
    }

    @Test func aRebuildReproducesTheDirectoryByteForByte() async throws {
        let t = try TestLog()
        defer { t.directory.remove() }
        let (log, directory) = try open(t)
        for name in ["a", "b", "c"] {
            try await directory.addUser(name, password: nil, namespace: name == "c" ? "x" : "default")
        }
        try await directory.defineGroup("g", members: ["a", "b"])
        try await directory.register(
            PushTargetRegistered(
                user: "a", deviceId: "d", deviceName: "D", platform: .mqtt, token: "to/a", publishTopic: "from/a"))
        try await directory.unregister(user: "a", deviceId: "d")
        let before = (try directory.users(), try directory.groups(), try directory.devices())
        try await log.rebuild([DirectoryProjection.name])
        #expect(try directory.users() == before.0)
        #expect(try directory.groups() == before.1)
        #expect(try directory.devices() == before.2)
        let report = try await log.verify()
        #expect(report.problems.isEmpty, "\(report.problems)")
    }
}
